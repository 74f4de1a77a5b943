package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The stored object after a PUT, and whether the PUT created it. */
public record UpdateResult(ObjectNode object, boolean created) {
}
