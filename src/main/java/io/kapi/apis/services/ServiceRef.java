package io.kapi.apis.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The service an allocation belongs to: an IPAddress's {@code spec.parentRef}. */
record ServiceRef(String namespace, String name) {

    static ServiceRef of(ObjectNode service) {
        JsonNode meta = service.path("metadata");
        return new ServiceRef(meta.path("namespace").asText(""), meta.path("name").asText(""));
    }

    /** The owner an IPAddress names, or null when it is not a core service. */
    static ServiceRef ofParent(JsonNode ipAddress) {
        JsonNode ref = ipAddress.path("spec").path("parentRef");
        if (!ref.path("resource").asText().equals("services") || !ref.path("group").asText("").isEmpty()) {
            return null;
        }
        return new ServiceRef(ref.path("namespace").asText(""), ref.path("name").asText(""));
    }
}
