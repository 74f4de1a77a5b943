package io.kapi.machinery;

/**
 * A validation error on one field, worded as {@code k8s.io/apimachinery/pkg/util/validation/field}
 * words it: {@code metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 ...}.
 *
 * @param type the error type, which decides the cause reason and the message prefix
 * @param field the path, e.g. {@code spec.containers[0].name}
 * @param value the offending value rendered for the message, or null when the type shows none
 * @param detail the explanation after the prefix, may be empty
 */
public record FieldError(Type type, String field, String value, String detail) {

    /** The field error types of apimachinery, with their cause reasons and message prefixes. */
    public enum Type {
        REQUIRED("FieldValueRequired", "Required value"),
        INVALID("FieldValueInvalid", "Invalid value"),
        NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value"),
        DUPLICATE("FieldValueDuplicate", "Duplicate value"),
        FORBIDDEN("FieldValueForbidden", "Forbidden"),
        TOO_LONG("FieldValueTooLong", "Too long"),
        TOO_MANY("FieldValueTooMany", "Too many"),
        TYPE_INVALID("FieldValueTypeInvalid", "Invalid value"),
        NOT_FOUND("FieldValueNotFound", "Not found"),
        INTERNAL("InternalError", "Internal error");

        private final String causeReason;
        private final String prefix;

        Type(String causeReason, String prefix) {
            this.causeReason = causeReason;
            this.prefix = prefix;
        }

        public String causeReason() {
            return causeReason;
        }

        public String prefix() {
            return prefix;
        }
    }

    public static FieldError required(String field, String detail) {
        return new FieldError(Type.REQUIRED, field, null, detail);
    }

    public static FieldError invalid(String field, String value, String detail) {
        return new FieldError(Type.INVALID, field, value, detail);
    }

    public static FieldError forbidden(String field, String detail) {
        return new FieldError(Type.FORBIDDEN, field, null, detail);
    }

    /** The message without the field: {@code Invalid value: "x": detail}. */
    public String message() {
        StringBuilder b = new StringBuilder(type.prefix());
        if (value != null) {
            b.append(": ").append(value);
        }
        if (detail != null && !detail.isEmpty()) {
            b.append(": ").append(detail);
        }
        return b.toString();
    }

    /** The full message: {@code field: Invalid value: "x": detail}. */
    @Override
    public String toString() {
        return field + ": " + message();
    }

    public StatusCause toCause() {
        return new StatusCause(type.causeReason(), message(), field);
    }
}
