package io.kapi.machinery.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.harness.ApiHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A write walks its object against the kind's schema once: the store's decode stage checks types,
 * unknown and duplicate fields and required fields in one walk, and the body decoder does not walk
 * the object a write stores again.
 */
class WriteWalksTest {

    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
    private static final String DEPLOYMENT = """
            {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s"},
             "spec":{"replicas":%d,"selector":{"matchLabels":{"app":"w"}},
              "template":{"metadata":{"labels":{"app":"w"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""";
    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    /** The Deployments walked while {@code request} ran (the server's own writes walk other kinds meanwhile). */
    private static long walks(Runnable request) {
        long before = deploymentWalks();
        request.run();
        return deploymentWalks() - before;
    }

    private static long deploymentWalks() {
        var runs = Walk.RUNS.get(new io.kapi.machinery.GroupVersionKind("apps", "v1", "Deployment"));
        return runs == null ? 0 : runs.sum();
    }

    @Test
    @DisplayName("a create, an update (PUT) and a merge patch each walk the object once")
    void oneWalkPerWrite() {
        assertEquals(1, walks(() -> assertEquals(201, api.post(DEPLOYMENTS, DEPLOYMENT.formatted("web", 1)).code())));
        String rv = api.get(DEPLOYMENTS + "/web").body().path("metadata").path("resourceVersion").asText();
        String replaced = DEPLOYMENT.formatted("web", 2).replace("\"name\":\"web\"",
                "\"name\":\"web\",\"resourceVersion\":\"" + rv + "\"");
        String[] written = new String[1];
        assertEquals(1, walks(() -> {
            ApiHarness.Reply put = api.put(DEPLOYMENTS + "/web", replaced);
            assertEquals(200, put.code());
            written[0] = put.body().path("metadata").path("resourceVersion").asText();
        }));
        // the patch starts from the watch cache's object: once the cache has the PUT (a GET at the PUT's
        // resourceVersion is answered by the cache when it has caught up), its one pass is not retried on a stale
        // start (a retry runs the whole pass again, a second walk the test would count)
        assertEquals(written[0], api.get(DEPLOYMENTS + "/web?resourceVersion=" + written[0]).body()
                .path("metadata").path("resourceVersion").asText());
        assertEquals(1, walks(() -> assertEquals(200, api.patch(DEPLOYMENTS + "/web", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":3}}").code())));
    }

    @Test
    @DisplayName("a body of the wrong JSON types is still refused with Go's decoding error, by the one walk")
    void typesStillChecked() {
        ApiHarness.Reply reply = api.post(DEPLOYMENTS, "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                + "\"metadata\":{\"name\":\"bad\"},\"spec\":\"x\"}");
        assertEquals(400, reply.code(), reply.text());
        assertEquals("Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string "
                + "into Go struct field Deployment.spec of type v1.DeploymentSpec", reply.body().path("message").asText());
        assertEquals(404, api.get(DEPLOYMENTS + "/bad").code());
    }
}
