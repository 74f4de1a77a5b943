package io.kapi.machinery.validation;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GroupVersionKind;
import java.util.List;

/**
 * The outcome of a schema validation that got past decoding.
 *
 * @param warnings messages to send back, each as one {@code Warning} header made by {@link Warnings#header}
 *     ({@code 299 - "unknown field \"spec.foo\""}); non-empty only in {@link FieldValidation#WARN} mode. Send
 *     them with whatever response the request ends with, errors included, as kube-apiserver does.
 * @param errors field errors (missing required fields) to merge with the strategy's own validation into one
 *     422 Invalid; see {@link #throwIfInvalid}
 */
public record ValidationResult(List<String> warnings, List<FieldError> errors) {

    public static final ValidationResult CLEAN = new ValidationResult(List.of(), List.of());

    /** Throws kube-apiserver's 422 {@code Kind "name" is invalid: [...]} if there are errors. */
    public void throwIfInvalid(GroupVersionKind gvk, String name) {
        if (!errors.isEmpty()) {
            throw ApiException.invalid(gvk, name == null ? "" : name, errors);
        }
    }
}
