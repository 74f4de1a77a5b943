package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** ResourceQuota for compute resources, claims' storage and scopes, through the whole API. */
class ComputeQuotaTest {

    @InMemoryApi
    private ApiHarness api;

    /** Creates the quotas, then a probe quota of no secrets, and waits until its watch refuses a dry-run secret. */
    private void quotas(String namespace, String... quotas) throws InterruptedException {
        api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}");
        ObjectNode sa = Json.object();
        sa.putObject("metadata").put("name", "default");
        api.post("/api/v1/namespaces/" + namespace + "/serviceaccounts", sa.toString());
        for (String q : quotas) {
            ApiHarness.Reply r = api.post("/api/v1/namespaces/" + namespace + "/resourcequotas", q);
            assertEquals(201, r.code(), r.text());
        }
        api.post("/api/v1/namespaces/" + namespace + "/resourcequotas",
                "{\"metadata\":{\"name\":\"probe\"},\"spec\":{\"hard\":{\"secrets\":\"0\"}}}");
        Await.atMost(Duration.ofSeconds(30)).until("the quotas seen", () -> api.post(
                "/api/v1/namespaces/" + namespace + "/secrets?dryRun=All", "{\"metadata\":{\"name\":\"probe\"}}").code() == 403);
    }

    private static ObjectNode pod(String name, String cpuRequest, String cpuLimit) {
        ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", name);
        ArrayNode containers = pod.putObject("spec").putArray("containers");
        ObjectNode c = containers.addObject().put("name", "c").put("image", "nginx");
        ObjectNode resources = c.putObject("resources");
        if (cpuRequest != null) {
            resources.putObject("requests").put("cpu", cpuRequest).put("memory", "64Mi");
        }
        if (cpuLimit != null) {
            resources.putObject("limits").put("cpu", cpuLimit).put("memory", "64Mi");
        }
        return pod;
    }

    private ApiHarness.Reply create(String namespace, ObjectNode pod) {
        return api.post("/api/v1/namespaces/" + namespace + "/pods", pod.toString());
    }

    @Test
    @DisplayName("requests and limits are charged; a pod that names none, or exceeds, is refused in kube's words")
    void computeQuota() throws Exception {
        quotas("cq", "{\"metadata\":{\"name\":\"compute\"},\"spec\":{\"hard\":{\"requests.cpu\":\"1\",\"limits.cpu\":\"2\","
                + "\"pods\":\"5\"}}}");
        ApiHarness.Reply bare = create("cq", pod("bare", null, null));
        assertEquals(403, bare.code(), bare.text());
        assertEquals("pods \"bare\" is forbidden: failed quota: compute: must specify limits.cpu for: c; requests.cpu "
                + "for: c", bare.body().path("message").asText());
        assertEquals(201, create("cq", pod("a", "600m", "1")).code());
        ApiHarness.Reply over = create("cq", pod("b", "500m", "1"));
        assertEquals(403, over.code(), over.text());
        assertEquals("pods \"b\" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: "
                + "requests.cpu=600m, limited: requests.cpu=1", over.body().path("message").asText());
        assertEquals(201, create("cq", pod("c", "400m", "1")).code());
        ObjectNode status = (ObjectNode) api.get("/api/v1/namespaces/cq/resourcequotas/compute").body().path("status");
        assertEquals("1", status.path("used").path("requests.cpu").asText());
        assertEquals("2", status.path("used").path("limits.cpu").asText());
        assertEquals("2", status.path("used").path("pods").asText());
        assertEquals("1", status.path("hard").path("requests.cpu").asText());
    }

    @Test
    @DisplayName("a BestEffort-scoped quota counts only pods without requests or limits")
    void scopes() throws Exception {
        quotas("sq", "{\"metadata\":{\"name\":\"besteffort\"},\"spec\":{\"hard\":{\"pods\":\"1\"},"
                + "\"scopes\":[\"BestEffort\"]}}");
        assertEquals(201, create("sq", pod("be1", null, null)).code());
        ApiHarness.Reply second = create("sq", pod("be2", null, null));
        assertEquals(403, second.code(), second.text());
        assertEquals("pods \"be2\" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: "
                + "pods=1", second.body().path("message").asText());
        assertEquals(201, create("sq", pod("burstable", "100m", "200m")).code());
    }

    @Test
    @DisplayName("claims are charged their storage, in total and per StorageClass, also when they grow")
    void storageQuota() throws Exception {
        quotas("pq", "{\"metadata\":{\"name\":\"storage\"},\"spec\":{\"hard\":{\"requests.storage\":\"10Gi\","
                + "\"gold.storageclass.storage.k8s.io/requests.storage\":\"3Gi\"}}}");
        String claim = "{\"metadata\":{\"name\":\"%s\"},\"spec\":{\"storageClassName\":\"%s\",\"accessModes\":"
                + "[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"%s\"}}}}";
        String claims = "/api/v1/namespaces/pq/persistentvolumeclaims";
        assertEquals(201, api.post(claims, claim.formatted("g1", "gold", "2Gi")).code());
        ApiHarness.Reply gold = api.post(claims, claim.formatted("g2", "gold", "2Gi"));
        assertEquals(403, gold.code(), gold.text());
        assertEquals("persistentvolumeclaims \"g2\" is forbidden: exceeded quota: storage, requested: "
                + "gold.storageclass.storage.k8s.io/requests.storage=2Gi, used: "
                + "gold.storageclass.storage.k8s.io/requests.storage=2Gi, limited: "
                + "gold.storageclass.storage.k8s.io/requests.storage=3Gi", gold.body().path("message").asText());
        assertEquals(201, api.post(claims, claim.formatted("s1", "silver", "7Gi")).code());
        ApiHarness.Reply total = api.post(claims, claim.formatted("s2", "silver", "2Gi"));
        assertEquals("persistentvolumeclaims \"s2\" is forbidden: exceeded quota: storage, requested: "
                + "requests.storage=2Gi, used: requests.storage=9Gi, limited: requests.storage=10Gi",
                total.body().path("message").asText());
    }
}
