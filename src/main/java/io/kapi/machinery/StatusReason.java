package io.kapi.machinery;

/** The {@code metav1.StatusReason} values Kapi answers with, each with its default HTTP code. */
public enum StatusReason {
    BAD_REQUEST("BadRequest", 400),
    UNAUTHORIZED("Unauthorized", 401),
    FORBIDDEN("Forbidden", 403),
    NOT_FOUND("NotFound", 404),
    METHOD_NOT_ALLOWED("MethodNotAllowed", 405),
    NOT_ACCEPTABLE("NotAcceptable", 406),
    ALREADY_EXISTS("AlreadyExists", 409),
    CONFLICT("Conflict", 409),
    GONE("Gone", 410),
    EXPIRED("Expired", 410),
    REQUEST_ENTITY_TOO_LARGE("RequestEntityTooLarge", 413),
    UNSUPPORTED_MEDIA_TYPE("UnsupportedMediaType", 415),
    INVALID("Invalid", 422),
    TOO_MANY_REQUESTS("TooManyRequests", 429),
    INTERNAL_ERROR("InternalError", 500),
    /** kube 1.34's {@code StoreReadError}: a LIST met values it cannot read (the unsafe-deletion gate on). */
    STORE_READ_ERROR("StoreReadError", 500),
    SERVICE_UNAVAILABLE("ServiceUnavailable", 503),
    TIMEOUT("Timeout", 504),
    /** {@code StatusReasonUnknown}: a Status with no reason (a webhook's denial may carry none). */
    UNKNOWN("", 500);

    private final String wire;
    private final int code;

    StatusReason(String wire, int code) {
        this.wire = wire;
        this.code = code;
    }

    /** The reason as written in a Status body. */
    public String wire() {
        return wire;
    }

    public int code() {
        return code;
    }

    /** The reason a Status body names; none reads as {@link #UNKNOWN}, one Kapi does not know as InternalError. */
    public static StatusReason ofWire(String wire) {
        if (wire.isEmpty()) {
            return UNKNOWN;
        }
        for (StatusReason r : values()) {
            if (r.wire.equals(wire)) {
                return r;
            }
        }
        return INTERNAL_ERROR;
    }
}
