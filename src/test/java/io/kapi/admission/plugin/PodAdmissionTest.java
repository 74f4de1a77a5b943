package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The default-on plugins that shape every new pod: ServiceAccount, Priority, DefaultTolerationSeconds. */
class PodAdmissionTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";

    @InMemoryApi
    private ApiHarness api;

    private ApiHarness.Reply create(ObjectNode pod) {
        return api.post(PODS, pod.toString());
    }

    @Test
    @DisplayName("a new pod gets the default service account, its token volume mounted, and priority 0")
    void defaults() {
        ApiHarness.Reply reply = create(pod("p"));
        assertEquals(201, reply.code(), reply.text());
        JsonNode spec = reply.body().path("spec");
        assertEquals("default", spec.path("serviceAccountName").asText());
        String volume = spec.path("volumes").get(0).path("name").asText();
        assertTrue(volume.matches("kube-api-access-[a-z0-9]{5}"), volume);
        assertEquals(ServiceAccountAdmission.TOKEN_MOUNT,
                spec.path("containers").get(0).path("volumeMounts").get(0).path("mountPath").asText());
        assertEquals(0, spec.path("priority").asInt(-1));
        assertEquals("PreemptLowerPriority", spec.path("preemptionPolicy").asText());
    }

    @Test
    @DisplayName("automountServiceAccountToken false leaves the token out")
    void noAutomount() {
        ObjectNode p = pod("p");
        p.with("spec").put("automountServiceAccountToken", false);
        assertFalse(create(p).body().path("spec").has("volumes"));
    }

    @Test
    @DisplayName("an unknown priority class is Forbidden, worded as kube-apiserver")
    void unknownPriorityClass() {
        ObjectNode p = pod("p");
        p.with("spec").put("priorityClassName", "nope");
        ApiHarness.Reply reply = create(p);
        assertEquals(403, reply.code());
        assertEquals("pods \"p\" is forbidden: no PriorityClass with name nope was found",
                reply.body().path("message").asText());
    }

    @Test
    @DisplayName("DefaultTolerationSeconds adds the not-ready and unreachable tolerations for 300 s, once")
    void defaultTolerations() {
        JsonNode tolerations = create(pod("p")).body().path("spec").path("tolerations");
        assertEquals(2, tolerations.size(), tolerations.toString());
        assertEquals("node.kubernetes.io/not-ready", tolerations.get(0).path("key").asText());
        assertEquals("NoExecute", tolerations.get(0).path("effect").asText());
        assertEquals(300, tolerations.get(0).path("tolerationSeconds").asInt());
        assertEquals("node.kubernetes.io/unreachable", tolerations.get(1).path("key").asText());
        ObjectNode tolerant = pod("q");
        tolerant.with("spec").putArray("tolerations").addObject().put("operator", "Exists");
        assertEquals(1, create(tolerant).body().path("spec").path("tolerations").size());
    }

    private static ObjectNode pod(String name) {
        ObjectNode pod = Json.object();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.putObject("metadata").put("name", name);
        pod.putObject("spec").putArray("containers").addObject().put("name", "c").put("image", "nginx");
        return pod;
    }
}
