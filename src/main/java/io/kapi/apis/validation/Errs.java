package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.FieldError.Type;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the field errors of one validation run, with apimachinery's constructors ({@code field.Required},
 * {@code field.Invalid}, ...) and value renderings. Values passed as {@code String} are already rendered
 * (see {@link Go}); the {@code JsonNode} overloads render a scalar.
 */
final class Errs {

    static final String IMMUTABLE = "field is immutable";
    static final String NEGATIVE = "must be greater than or equal to 0";

    private final List<FieldError> list = new ArrayList<>();

    List<FieldError> list() {
        return list;
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    int size() {
        return list.size();
    }

    void required(String path, String detail) {
        list.add(new FieldError(Type.REQUIRED, path, null, detail));
    }

    void invalid(String path, String renderedValue, String detail) {
        list.add(new FieldError(Type.INVALID, path, renderedValue, detail));
    }

    void invalid(String path, JsonNode value, String detail) {
        invalid(path, Go.scalar(value), detail);
    }

    /** Invalid with a string value, quoted. */
    void invalidString(String path, String value, String detail) {
        invalid(path, GoStrings.quote(value), detail);
    }

    void forbidden(String path, String detail) {
        list.add(new FieldError(Type.FORBIDDEN, path, null, detail));
    }

    void duplicate(String path, String renderedValue) {
        list.add(new FieldError(Type.DUPLICATE, path, renderedValue, ""));
    }

    void notFound(String path, String renderedValue) {
        list.add(new FieldError(Type.NOT_FOUND, path, renderedValue, ""));
    }

    void tooLong(String path, int max) {
        list.add(new FieldError(Type.TOO_LONG, path, null, "must have at most " + max + " bytes"));
    }

    /** {@code field.TooMany}: {@code Too many: 1001: must have at most 1000 items}. */
    void tooMany(String path, int actual, int max) {
        list.add(new FieldError(Type.TOO_MANY, path, Integer.toString(actual), "must have at most " + max + " items"));
    }

    /** {@code field.InternalError}: {@code Internal error: detail}. */
    void internal(String path, String detail) {
        list.add(new FieldError(Type.INTERNAL, path, null, detail));
    }

    /** {@code Unsupported value: "x": supported values: "a", "b"}. */
    void notSupported(String path, String renderedValue, List<String> supported) {
        List<String> quoted = supported.stream().map(GoStrings::quote).toList();
        list.add(new FieldError(Type.NOT_SUPPORTED, path, renderedValue,
                quoted.isEmpty() ? "" : "supported values: " + String.join(", ", quoted)));
    }

    void add(FieldError e) {
        list.add(e);
    }

    /** Each message of an identifier check as an Invalid error on {@code path} with a quoted string value. */
    void each(String path, String value, List<String> messages) {
        messages.forEach(m -> invalidString(path, value, m));
    }

    /** {@code ValidateNonnegativeField} on an optional integer field. */
    void nonNegative(JsonNode parent, String name, String path) {
        JsonNode v = parent.get(name);
        if (v != null && v.isNumber() && v.asLong() < 0) {
            invalid(path, v.asText(), NEGATIVE);
        }
    }

    /** {@code ValidateImmutableField} of a scalar: Invalid with the new value, {@code field is immutable}. */
    void immutableScalar(JsonNode now, JsonNode before, String path) {
        if (!GoValues.same(now, before)) {
            invalid(path, Go.scalar(now), IMMUTABLE);
        }
    }
}
