package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** A decoded request body and the JSON paths of fields it gave twice (e.g. {@code metadata.name}). */
public record Decoded(ObjectNode object, List<String> duplicateFields) {
}
