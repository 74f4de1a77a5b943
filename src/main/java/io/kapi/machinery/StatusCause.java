package io.kapi.machinery;

/**
 * One entry of {@code details.causes}: for field errors {@code reason} is a {@code metav1.CauseType}
 * such as {@code FieldValueInvalid} and {@code field} the JSON path, e.g. {@code metadata.name}.
 */
public record StatusCause(String reason, String message, String field) {
}
