package io.kapi.endpoint.table;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoStrings;

/** The {@code includeObject} query parameter of a Table request: what each row's {@code object} holds. */
public enum IncludeObject {
    /** {@code object} is null. */
    NONE("None"),
    /** {@code object} is a {@code PartialObjectMetadata}: the default. */
    METADATA("Metadata"),
    /** {@code object} is the whole object in the requested version. */
    OBJECT("Object");

    private final String wire;

    IncludeObject(String wire) {
        this.wire = wire;
    }

    /** The value as it appears in the query, e.g. {@code Metadata}. */
    public String wire() {
        return wire;
    }

    /**
     * Reads the query parameter: null or empty means {@link #METADATA}, as kube-apiserver.
     *
     * @throws ApiException 400 BadRequest {@code unrecognized includeObject value: "x"} for anything else
     */
    public static IncludeObject parse(String value) {
        if (value == null || value.isEmpty()) {
            return METADATA;
        }
        for (IncludeObject v : values()) {
            if (v.wire.equals(value)) {
                return v;
            }
        }
        throw ApiException.badRequest("unrecognized includeObject value: " + GoStrings.quote(value));
    }
}
