package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The default-on LimitRanger: a LimitRange's container defaults and bounds on new pods. */
class LimitRangerTest {

    @InMemoryApi
    private ApiHarness api;

    @BeforeEach
    void setUp() {
        ApiHarness.Reply r = api.post("/api/v1/namespaces/default/limitranges", """
                {"metadata":{"name":"limits"},"spec":{"limits":[{"type":"Container",
                 "default":{"cpu":"500m","memory":"256Mi"},"defaultRequest":{"cpu":"100m"},"max":{"memory":"1Gi"}}]}}""");
        assertEquals(201, r.code(), r.text());
        awaitSeen();
    }

    /** LimitRanges are read from a watch: dry-run creates until one is defaulted. */
    private void awaitSeen() {
        String pod = "{\"metadata\":{\"name\":\"probe\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";
        Await.atMost(Duration.ofSeconds(30)).until("the LimitRange seen", () -> api.post(
                "/api/v1/namespaces/default/pods?dryRun=All", pod).body().path("metadata").path("annotations")
                .has(LimitRanger.ANNOTATION));
    }

    private ApiHarness.Reply create(String name, String memoryLimit) {
        ObjectNode pod = Json.object();
        pod.putObject("metadata").put("name", name);
        ObjectNode c = pod.putObject("spec").putArray("containers").addObject().put("name", "web").put("image", "nginx");
        if (memoryLimit != null) {
            c.putObject("resources").putObject("limits").put("memory", memoryLimit);
        }
        return api.post("/api/v1/namespaces/default/pods", pod.toString());
    }

    @Test
    @DisplayName("a container without resources gets the defaults, and the annotation says so")
    void defaults() {
        ApiHarness.Reply r = create("p", null);
        assertEquals(201, r.code(), r.text());
        JsonNode resources = r.body().path("spec").path("containers").get(0).path("resources");
        assertEquals("{\"cpu\":\"500m\",\"memory\":\"256Mi\"}", resources.path("limits").toString());
        assertEquals("{\"cpu\":\"100m\",\"memory\":\"256Mi\"}", resources.path("requests").toString());
        assertEquals("LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web",
                r.body().path("metadata").path("annotations").path(LimitRanger.ANNOTATION).asText());
    }

    @Test
    @DisplayName("a limit above max is Forbidden, worded as kube-apiserver")
    void max() {
        ApiHarness.Reply r = create("big", "2Gi");
        assertEquals(403, r.code(), r.text());
        assertEquals("pods \"big\" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi",
                r.body().path("message").asText());
    }
}
