package io.kapi.apis.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.HealthCheck;
import io.kapi.machinery.Json;
import io.kapi.client.ResourceClient;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("kube-apiserver-autoregistration: a local APIService per served built-in group-version")
class LocalApiServicesTest {

    private final BootstrapFixture fixture = new BootstrapFixture();
    private final ResourceClient apiServices = fixture.store("apiregistration.k8s.io", "apiservices");

    @AfterEach
    void close() {
        fixture.close();
    }

    private void run() throws Exception {
        new LocalApiServices(apiServices, fixture.registry).run();
    }

    private Set<String> names() {
        return fixture.list("apiregistration.k8s.io", "apiservices").stream()
                .map(o -> o.path("metadata").path("name").asText()).collect(Collectors.toSet());
    }

    @Test
    @DisplayName("every built-in group-version kube ranks gets one, with kube's spec, label and Available=True/Local")
    void createsThem() throws Exception {
        run();
        Set<String> names = names();
        assertTrue(names.containsAll(List.of("v1.", "v1.apps", "v1.autoscaling", "v2.autoscaling", "v1.batch",
                "v1.rbac.authorization.k8s.io", "v1.apiextensions.k8s.io", "v1.resource.k8s.io")), names.toString());
        assertFalse(names.contains("v1.apiregistration.k8s.io"), "kube registers none for the aggregator's own group");
        ObjectNode apps = apiServices.get("", "v1.apps");
        assertEquals("onstart", apps.path("metadata").path("labels").path(LocalApiServices.AUTOMANAGED).asText());
        assertEquals(Json.MAPPER.createObjectNode().put("group", "apps").put("version", "v1")
                .put("groupPriorityMinimum", 17800).put("versionPriority", 15), apps.path("spec"));
        ObjectNode core = apiServices.get("", "v1.");
        assertEquals("", core.path("spec").path("group").asText());
        assertEquals(18000, core.path("spec").path("groupPriorityMinimum").asInt());
        JsonNode available = core.path("status").path("conditions").get(0);
        assertEquals("Available", available.path("type").asText());
        assertEquals("True", available.path("status").asText());
        assertEquals("Local", available.path("reason").asText());
        assertEquals("Local APIServices are always available", available.path("message").asText());
    }

    @Test
    @DisplayName("a second start (another replica) writes nothing; a drifted spec is set back; a stale onstart one goes")
    void reconciles() throws Exception {
        run();
        String rv = apiServices.get("", "v1.batch").path("metadata").path("resourceVersion").asText();
        run();
        assertEquals(rv, apiServices.get("", "v1.batch").path("metadata").path("resourceVersion").asText());

        Stores.update(apiServices, "", "v1.batch", o -> {
            ((ObjectNode) o.path("spec")).put("versionPriority", 3);
            return o;
        });
        apiServices.create("", (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v9.gone.example.com",
                 "labels":{"kube-aggregator.kubernetes.io/automanaged":"onstart"}},
                 "spec":{"group":"gone.example.com","version":"v9","groupPriorityMinimum":100,"versionPriority":1}}"""));
        apiServices.create("", (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1.mine.example.com"},
                 "spec":{"group":"mine.example.com","version":"v1","groupPriorityMinimum":100,"versionPriority":1}}"""));
        run();
        assertEquals(15, apiServices.get("", "v1.batch").path("spec").path("versionPriority").asInt());
        assertFalse(names().contains("v9.gone.example.com"), "an onstart APIService no longer served is deleted");
        assertTrue(names().contains("v1.mine.example.com"), "one the server does not manage is left alone");
    }

    @Test
    @DisplayName("autoregister-completion fails, naming them, until every one was seen available; then passes for good")
    void completion() throws Exception {
        LocalApiServices hook = new LocalApiServices(apiServices, fixture.registry);
        HealthCheck check = hook.completion();
        Exception before = assertThrows(IllegalStateException.class, check::check);
        assertTrue(before.getMessage().startsWith("missing APIService: ["), before.getMessage());
        assertTrue(before.getMessage().contains("v1.apps"), before.getMessage());
        hook.run();
        awaitPassing(check); // the check reads the watch cache, which follows the writes
        apiServices.delete("", "v1.apps", io.kapi.registry.DeleteOptions.DEFAULT);
        check.check(); // a boot-sequence check: once passed, it stays passed, as kube's
    }

    private static void awaitPassing(HealthCheck check) throws Exception {
        long end = System.nanoTime() + java.time.Duration.ofSeconds(5).toNanos();
        while (true) {
            try {
                check.check();
                return;
            } catch (IllegalStateException e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(10);
            }
        }
    }
}
