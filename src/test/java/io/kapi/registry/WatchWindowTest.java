package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Where a watch may resume from: the watch caches start with the server, as kube-apiserver's. */
class WatchWindowTest {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    @InMemoryApi
    private static ApiHarness api;

    @Test
    @DisplayName("a watch from resourceVersion=1 on a server that has written a few hundred objects is 410 Gone")
    void tooOld() throws Exception {
        for (int i = 0; i < 300; i++) {
            assertEquals(201, api.post(CMS, "{\"metadata\":{\"name\":\"w" + i + "\"}}").code());
        }
        ApiHarness.Reply reply = api.get(CMS + "?watch=true&resourceVersion=1&timeoutSeconds=2");
        assertEquals(200, reply.code(), "a watch answers 200 and ends with an ERROR event");
        JsonNode event = Json.MAPPER.readTree(reply.text().lines().findFirst().orElseThrow());
        assertEquals("ERROR", event.path("type").asText(), reply.text());
        assertEquals(410, event.path("object").path("code").asInt(), reply.text());
        assertEquals("Expired", event.path("object").path("reason").asText());
        assertTrue(event.path("object").path("message").asText().startsWith("too old resource version: 1 ("),
                event.toString());
    }

    @Test
    @DisplayName("a watch from a version after the caches started replays the changes since")
    void recent() throws Exception {
        String rv = api.post(CMS, "{\"metadata\":{\"name\":\"recent\"}}").body().path("metadata")
                .path("resourceVersion").asText();
        api.patch(CMS + "/recent", "application/merge-patch+json", "{\"data\":{\"k\":\"v\"}}");
        ApiHarness.Reply reply = api.get(CMS + "?watch=true&resourceVersion=" + rv + "&timeoutSeconds=1"
                + "&fieldSelector=metadata.name%3Drecent");
        JsonNode event = Json.MAPPER.readTree(reply.text().lines().findFirst().orElseThrow());
        assertEquals("MODIFIED", event.path("type").asText(), reply.text());
        assertEquals("v", event.path("object").path("data").path("k").asText());
    }
}
