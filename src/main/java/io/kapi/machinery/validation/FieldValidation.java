package io.kapi.machinery.validation;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import java.util.List;

/**
 * The {@code fieldValidation} query parameter of create, update and patch: what to do with unknown and
 * duplicate fields. kube-apiserver's default (no parameter) is {@link #WARN}.
 */
public enum FieldValidation {
    /** Fail the request with 400 BadRequest {@code strict decoding error: ...}. */
    STRICT("Strict"),
    /** Drop the fields and answer with one {@code Warning} header per field. */
    WARN("Warn"),
    /** Drop the fields silently. */
    IGNORE("Ignore");

    private final String wire;

    FieldValidation(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /**
     * Parses the query parameter; null or empty is {@link #WARN}.
     *
     * @param optionsKind {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}: the kind
     *     kube-apiserver names in its error
     * @throws ApiException 422, worded as kube-apiserver: {@code CreateOptions.meta.k8s.io "" is invalid:
     *     fieldValidation: Unsupported value: "foo": supported values: "", "Ignore", "Strict", "Warn"}
     */
    public static FieldValidation parse(String value, String optionsKind) {
        if (value == null || value.isEmpty()) {
            return WARN;
        }
        for (FieldValidation f : values()) {
            if (f.wire.equals(value)) {
                return f;
            }
        }
        FieldError error = new FieldError(FieldError.Type.NOT_SUPPORTED, "fieldValidation", GoStrings.quote(value),
                "supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"");
        throw ApiException.invalid(new GroupVersionKind("meta.k8s.io", "v1", optionsKind), "", List.of(error));
    }

    private static final List<String> YAML_PREFIXES = List.of("yaml: unmarshal errors:\n",
            "error converting YAML to JSON: yaml: unmarshal errors:\n");

    /**
     * The warnings of {@link #WARN} for the strict decoding errors {@code strict}, as kube-apiserver's
     * {@code addStrictDecodingWarnings} makes them: a YAML error ({@code error converting YAML to JSON: yaml:
     * unmarshal errors:} and one line per duplicate key) becomes one warning per line, its prefix dropped
     * ({@code line 4: key "a" already set in map}); any other error is one warning as it is.
     */
    public static List<String> warnings(List<String> strict) {
        List<String> out = new java.util.ArrayList<>();
        for (String error : strict) {
            String prefix = YAML_PREFIXES.stream().filter(error::startsWith).findFirst().orElse(null);
            if (prefix == null) {
                out.add(error);
                continue;
            }
            for (String line : error.substring(prefix.length()).split("\n", -1)) {
                out.add(line.strip());
            }
        }
        return out;
    }
}
