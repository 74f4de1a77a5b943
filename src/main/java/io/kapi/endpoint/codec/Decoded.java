package io.kapi.endpoint.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A decoded request body.
 *
 * @param object the body as a tree (the last of duplicate keys kept); mutable, owned by the caller
 * @param duplicateFields strict-decoding messages about duplicate keys, ready to show: for JSON one per key,
 *     {@code duplicate field "metadata.name"}; for YAML one for all, {@code error converting YAML to JSON: yaml:
 *     unmarshal errors:\n  line 4: key "name" already set in map}. Pass them to the validator, which fails
 *     (Strict), warns (Warn) or ignores them.
 * @param format the format the body was in
 */
public record Decoded(ObjectNode object, List<String> duplicateFields, Format format) {
}
