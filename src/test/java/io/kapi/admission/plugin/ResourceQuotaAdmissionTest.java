package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The default-on ResourceQuota for object counts: charged exactly, refused in kube's words. */
class ResourceQuotaAdmissionTest {

    @InMemoryApi
    private ApiHarness api;

    private void quota(String namespace, String resource, int hard) {
        assertEquals(201, api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}").code());
        ApiHarness.Reply r = api.post("/api/v1/namespaces/" + namespace + "/resourcequotas",
                "{\"metadata\":{\"name\":\"q\"},\"spec\":{\"hard\":{\"" + resource + "\":\"" + hard + "\"}}}");
        assertEquals(201, r.code(), r.text());
        awaitSeen(namespace);
    }

    /**
     * Quotas are read from a watch, which delivers in order: a second quota of no secrets, created after,
     * refusing a dry-run secret means the first is seen too.
     */
    private void awaitSeen(String namespace) {
        assertEquals(201, api.post("/api/v1/namespaces/" + namespace + "/resourcequotas",
                "{\"metadata\":{\"name\":\"probe\"},\"spec\":{\"hard\":{\"secrets\":\"0\"}}}").code());
        Await.atMost(Duration.ofSeconds(30)).until("the quota seen", () -> api.post(
                "/api/v1/namespaces/" + namespace + "/secrets?dryRun=All", "{\"metadata\":{\"name\":\"probe\"}}").code() == 403);
    }

    private int create(String namespace, String name) {
        return api.post("/api/v1/namespaces/" + namespace + "/configmaps",
                "{\"metadata\":{\"name\":\"" + name + "\"}}").code();
    }

    @Test
    @DisplayName("a quota of 12 configmaps refuses the 13th with exceeded quota, and status.used counts 12")
    void refusesThirteenth() {
        quota("q1", "count/configmaps", 12);
        for (int i = 1; i <= 12; i++) {
            assertEquals(201, create("q1", "c" + i));
        }
        ApiHarness.Reply r = api.post("/api/v1/namespaces/q1/configmaps", "{\"metadata\":{\"name\":\"c13\"}}");
        assertEquals(403, r.code(), r.text());
        assertEquals("configmaps \"c13\" is forbidden: exceeded quota: q, requested: count/configmaps=1, "
                + "used: count/configmaps=12, limited: count/configmaps=12", r.body().path("message").asText());
        ApiHarness.Reply q = api.get("/api/v1/namespaces/q1/resourcequotas/q");
        assertEquals("12", q.body().path("status").path("used").path("count/configmaps").asText());
        assertEquals("12", q.body().path("status").path("hard").path("count/configmaps").asText());
    }

    @Test
    @DisplayName("concurrent creates never exceed the quota (legacy name configmaps)")
    void concurrent() throws Exception {
        quota("q2", "configmaps", 5);
        List<Future<Integer>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 16; i++) {
                String name = "c" + i;
                results.add(threads.submit(() -> create("q2", name)));
            }
        }
        int created = 0;
        for (Future<Integer> f : results) {
            created += f.get() == 201 ? 1 : 0;
        }
        assertEquals(5, created);
        assertEquals(5, api.get("/api/v1/namespaces/q2/configmaps").body().path("items").size());
        assertEquals("5", api.get("/api/v1/namespaces/q2/resourcequotas/q").body().path("status").path("used")
                .path("configmaps").asText());
    }
}
