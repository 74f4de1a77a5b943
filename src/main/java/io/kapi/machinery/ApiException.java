package io.kapi.machinery;

import java.util.List;

/**
 * The one error every layer throws to answer a request with a {@code metav1.Status}. Build it through
 * the factories, which word messages as kube-apiserver does (kubectl prints them verbatim); it becomes
 * a Status body in exactly one place, {@link Status#of(ApiException)}.
 */
public final class ApiException extends RuntimeException {

    private final StatusReason reason;
    private final int code;
    private final Details details;

    /** {@code details} of a Status; {@code kind} is the resource (or kind, for Invalid) it names. */
    public record Details(String name, String group, String kind, List<StatusCause> causes, Integer retryAfterSeconds) {
        public static final Details NONE = new Details(null, null, null, List.of(), null);

        static Details of(GroupVersionResource gvr, String name) {
            return new Details(name, emptyToNull(gvr.group()), gvr.resource(), List.of(), null);
        }
    }

    public ApiException(StatusReason reason, int code, String message, Details details) {
        this(reason, code, message, details, null);
    }

    /** @param cause what the error is about, for the layers that word it again (not shown to clients) */
    public ApiException(StatusReason reason, int code, String message, Details details, Throwable cause) {
        super(message, cause, false, false);
        this.reason = reason;
        this.code = code;
        this.details = details;
    }

    public ApiException(StatusReason reason, String message) {
        this(reason, reason.code(), message, Details.NONE);
    }

    public StatusReason reason() {
        return reason;
    }

    public int code() {
        return code;
    }

    public Details details() {
        return details;
    }

    /** Whether {@code details.causes} holds one of {@code reason} (kube's {@code apierrors.HasStatusCause}). */
    public boolean hasCause(String reason) {
        return details != null && details.causes() != null
                && details.causes().stream().anyMatch(c -> reason.equals(c.reason()));
    }

    /**
     * A write that lost a race: its object went (404) or changed (409) meanwhile. A controller leaves it to the
     * event that tells it of the change.
     */
    public boolean lostRace() {
        return code == 404 || code == 409;
    }

    /** 403 because the namespace is being terminated (kube's {@code NamespaceTerminating} cause). */
    public boolean namespaceTerminating() {
        return code == 403 && hasCause("NamespaceTerminating");
    }

    // ---- factories, worded as k8s.io/apimachinery/pkg/api/errors words them ----

    public static ApiException notFound(GroupVersionResource gvr, String name) {
        return new ApiException(StatusReason.NOT_FOUND, 404,
                "%s \"%s\" not found".formatted(gvr.qualifiedResource(), name), Details.of(gvr, name));
    }

    public static ApiException alreadyExists(GroupVersionResource gvr, String name) {
        return new ApiException(StatusReason.ALREADY_EXISTS, 409,
                "%s \"%s\" already exists".formatted(gvr.qualifiedResource(), name), Details.of(gvr, name));
    }

    /** 409 for a stale resourceVersion or a failed precondition. */
    public static ApiException conflict(GroupVersionResource gvr, String name, String why) {
        return new ApiException(StatusReason.CONFLICT, 409,
                "Operation cannot be fulfilled on %s \"%s\": %s".formatted(gvr.qualifiedResource(), name, why),
                Details.of(gvr, name));
    }

    /** The conflict kube-apiserver answers for an update with a stale resourceVersion. */
    public static ApiException staleUpdate(GroupVersionResource gvr, String name) {
        return conflict(gvr, name,
                "the object has been modified; please apply your changes to the latest version and try again");
    }

    /** 422: {@code ConfigMap "x" is invalid: [a, b]} with one cause per field error. */
    public static ApiException invalid(GroupVersionKind gvk, String name, List<FieldError> errors) {
        // the message lists each distinct error once, as Go's ErrorList.ToAggregate; the causes keep every one
        List<String> distinct = errors.stream().map(FieldError::toString).distinct().toList();
        String joined = distinct.size() == 1 ? distinct.getFirst() : "[" + String.join(", ", distinct) + "]";
        String qualifiedKind = gvk.group().isEmpty() ? gvk.kind() : gvk.kind() + "." + gvk.group();
        List<StatusCause> causes = errors.stream().map(FieldError::toCause).toList();
        return new ApiException(StatusReason.INVALID, 422,
                "%s \"%s\" is invalid: %s".formatted(qualifiedKind, name, joined),
                new Details(name, emptyToNull(gvk.group()), gvk.kind(), causes, null));
    }

    /** 403 for a named object: {@code configmaps "x" is forbidden: why}. */
    public static ApiException forbidden(GroupVersionResource gvr, String name, String why, List<StatusCause> causes) {
        return new ApiException(StatusReason.FORBIDDEN, 403,
                "%s \"%s\" is forbidden: %s".formatted(gvr.qualifiedResource(), name, why),
                new Details(name, emptyToNull(gvr.group()), gvr.resource(), causes, null));
    }

    public static ApiException badRequest(String message) {
        return new ApiException(StatusReason.BAD_REQUEST, message);
    }

    /** 404 for a path that names no resource: kube-apiserver's generic not-found. */
    public static ApiException pathNotFound() {
        return new ApiException(StatusReason.NOT_FOUND, "the server could not find the requested resource");
    }

    public static ApiException methodNotAllowed() {
        return new ApiException(StatusReason.METHOD_NOT_ALLOWED,
                "the server does not allow this method on the requested resource");
    }

    /** 405 with kube-apiserver's own wording ({@code create not allowed while custom resource definition is terminating}). */
    public static ApiException methodNotAllowed(String message) {
        return new ApiException(StatusReason.METHOD_NOT_ALLOWED, 405, message, Details.NONE);
    }

    /** 405 for a verb the resource does not support, worded as kube-apiserver. */
    public static ApiException verbNotSupported(GroupVersionResource gvr, String verb) {
        return new ApiException(StatusReason.METHOD_NOT_ALLOWED, 405,
                "%s is not supported on resources of kind \"%s\"".formatted(verb, gvr.qualifiedResource()),
                Details.NONE);
    }

    public static ApiException unsupportedMediaType(String contentType) {
        return new ApiException(StatusReason.UNSUPPORTED_MEDIA_TYPE,
                "the body of the request was in an unknown format - accepted media types include: "
                        + "application/json, application/yaml, application/vnd.kubernetes.protobuf");
    }

    public static ApiException notAcceptable(String accepted) {
        return new ApiException(StatusReason.NOT_ACCEPTABLE,
                "only the following media types are accepted: " + accepted);
    }

    public static ApiException tooLarge(long limit) {
        return new ApiException(StatusReason.REQUEST_ENTITY_TOO_LARGE,
                "Request entity too large: limit is " + limit);
    }

    public static ApiException unauthorized() {
        return new ApiException(StatusReason.UNAUTHORIZED, "Unauthorized");
    }

    public static ApiException gone(String message) {
        return new ApiException(StatusReason.EXPIRED, 410, message, Details.NONE);
    }

    /** 500, worded as kube-apiserver's InternalError; the detail must not leak secrets. */
    public static ApiException internal(String detail) {
        return new ApiException(StatusReason.INTERNAL_ERROR, 500, "Internal error occurred: " + detail,
                new Details(null, null, null, List.of(new StatusCause(null, detail, null)), null));
    }

    /**
     * 500 without a reason, the message as it is: kube-apiserver's answer to an error that is not an API
     * status (a failed conversion webhook), which kubectl prints as {@code Error from server: <message>}.
     */
    public static ApiException unknown(String message) {
        return new ApiException(StatusReason.UNKNOWN, 500, message, Details.NONE);
    }

    /** 504 Timeout, as kube-apiserver's timeout filter words it: {@code Timeout: request did not complete ...}. */
    public static ApiException timeout(String message) {
        return new ApiException(StatusReason.TIMEOUT, "Timeout: " + message);
    }

    public static ApiException serviceUnavailable(String message) {
        return new ApiException(StatusReason.SERVICE_UNAVAILABLE, message);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
