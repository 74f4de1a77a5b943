package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The test library's API without sockets: the same assembly as a listening server, driven directly. */
class InMemoryKapiTest {

    @Test
    @DisplayName("an in-memory server serves the API to its admin, with the bootstrap objects in place")
    void servesTheApi() {
        try (InMemoryKapi kapi = KapiServer.builder().startInMemory()) {
            DirectClient admin = kapi.client();
            assertEquals(200, admin.get("/api/v1/namespaces/kube-system").status());
            DirectClient.Response created = admin.post("/api/v1/namespaces/default/configmaps",
                    "{\"metadata\":{\"name\":\"c\"},\"data\":{\"a\":\"b\"}}");
            assertEquals(201, created.status());
            assertEquals("b", admin.get("/api/v1/namespaces/default/configmaps/c").json().path("data").path("a").asText());
            DirectClient.Response missing = admin.get("/api/v1/namespaces/default/configmaps/nope");
            assertEquals(404, missing.status());
            assertEquals("NotFound", missing.json().path("reason").asText());
        }
    }

    @Test
    @DisplayName("requests of another user are authorized by the server's modes, as over HTTPS")
    void authorizesOtherUsers() {
        try (InMemoryKapi kapi = KapiServer.builder().authorizationModes("RBAC").startInMemory()) {
            DirectClient.Response denied = kapi.client().as("jane", "dev").get("/api/v1/namespaces/default/secrets");
            assertEquals(403, denied.status());
            assertTrue(denied.json().path("message").asText().contains("User \"jane\" cannot list resource \"secrets\""),
                    denied.text());
            DirectClient.Response asAdmin = kapi.client().call("GET", "/api/v1/namespaces/default/secrets",
                    null, "");
            assertEquals(200, asAdmin.status());
        }
    }

    @Test
    @DisplayName("CRDs given to the builder are established before startInMemory returns")
    void installsCrds() {
        try (InMemoryKapi kapi = KapiServer.builder().crds("classpath:crds/widgets.yaml").startInMemory()) {
            DirectClient.Response widget = kapi.client().post("/apis/example.com/v1/namespaces/default/widgets",
                    "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                            + "\"spec\":{\"size\":3}}");
            assertEquals(201, widget.status(), widget.text());
            assertFalse(widget.header("Content-Type").isEmpty());
        }
    }

    @Test
    @DisplayName("an unknown authorization mode fails before anything starts")
    void refusesUnknownModes() {
        assertThrows(IllegalArgumentException.class,
                () -> KapiServer.builder().authorizationModes("Bogus").startInMemory());
    }
}
