package io.kapi.endpoint.handlers;

import io.kapi.machinery.ApiException;

/**
 * The field selectors every resource supports: {@code metadata.name} and {@code metadata.namespace}
 * with {@code =} or {@code ==}. Per-kind fields and {@code !=} come with the watch cache's indexes.
 *
 * @param name the name the selector pins, or null
 * @param namespace the namespace the selector pins, or null
 */
record FieldSelectors(String name, String namespace) {

    static final FieldSelectors NONE = new FieldSelectors(null, null);

    /** Parses a selector; 400 BadRequest for a malformed one or a field not supported. */
    static FieldSelectors parse(String selector) {
        if (selector == null || selector.isBlank()) {
            return NONE;
        }
        String name = null;
        String namespace = null;
        for (String term : selector.split(",")) {
            String[] kv = term.trim().split("==?", 2);
            if (kv.length != 2 || kv[0].endsWith("!")) {
                throw ApiException.badRequest("invalid selector: '" + selector + "'; can't understand '" + term + "'");
            }
            String field = kv[0].trim();
            switch (field) {
                case "metadata.name" -> name = kv[1].trim();
                case "metadata.namespace" -> namespace = kv[1].trim();
                default -> throw ApiException.badRequest("field label not supported: " + field);
            }
        }
        return new FieldSelectors(name, namespace);
    }
}
