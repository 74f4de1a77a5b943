package io.kapi.machinery.validation;

import java.util.Map;

/**
 * A compiled schema node: what Go type kube-apiserver would decode a JSON value into. Each carries the Go
 * type name its decode errors show ({@code int32}, {@code []v1.Container}, {@code map[string]string}).
 */
sealed interface Shape {

    /** The Go type as {@code reflect.Type.String()} prints it. */
    String goType();

    /** A Go struct from a definition with properties. Filled after construction, so refs may be cyclic. */
    final class Struct implements Shape {
        final String definition;
        final String goName;
        final String goType;
        Map<String, Shape> fields;
        String[] required;
        boolean preserveUnknown;

        Struct(String definition) {
            this.definition = definition;
            int last = definition.lastIndexOf('.');
            int prev = definition.lastIndexOf('.', last - 1);
            this.goName = definition.substring(last + 1);
            this.goType = definition.substring(prev + 1);
        }

        @Override
        public String goType() {
            return goType;
        }
    }

    record MapOf(Shape values) implements Shape {
        @Override
        public String goType() {
            return "map[string]" + values.goType();
        }
    }

    record ListOf(Shape items) implements Shape {
        @Override
        public String goType() {
            return "[]" + items.goType();
        }
    }

    /** A leaf; the custom-unmarshalled kinds (quantity, int-or-string, time) have their own error wording. */
    enum Scalar implements Shape {
        STRING("string"),
        INT32("int32"),
        INT64("int64"),
        FLOAT64("float64"),
        BOOL("bool"),
        BYTES("[]uint8"),
        QUANTITY("resource.Quantity"),
        INT_OR_STRING("intstr.IntOrString"),
        TIME("v1.Time"),
        /** RawExtension, FieldsV1, JSON, untyped schemas: any JSON value, kept as is. */
        ANY("interface {}");

        private final String goType;

        Scalar(String goType) {
            this.goType = goType;
        }

        @Override
        public String goType() {
            return goType;
        }
    }
}
