package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * API Priority and Fairness against a real server, with kubectl and a Java client: the classification
 * headers, a one-seat level that rejects a second concurrent request of its user with 429 while an
 * admin is served, live reconfiguration, the Dangling condition and the debug dumps.
 *
 * <p>The server has 100 + 50 seats, so a level of 1 share among the suggested levels' 245 gets exactly
 * one. RBAC decides, so that the dumps are refused to a user without access. The flood user's first request holds its seat for the 3 s a LIST waits for a resource version
 * the cache never reaches.
 */
@DisplayName("API Priority and Fairness")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class FlowControlIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--max-requests-inflight=100",
            "--max-mutating-requests-inflight=50", "--authorization-mode=RBAC");

    private static final String SLOW_LIST = "/api/v1/namespaces/default/configmaps?resourceVersion=999999999";
    private static final String LIST = "/api/v1/namespaces/default/configmaps";

    static String level(int shares) {
        return """
                apiVersion: flowcontrol.apiserver.k8s.io/v1
                kind: PriorityLevelConfiguration
                metadata: {name: flood-level}
                spec:
                  type: Limited
                  limited:
                    nominalConcurrencyShares: %d
                    lendablePercent: 0
                    borrowingLimitPercent: 0
                    limitResponse: {type: Reject}
                """.formatted(shares);
    }

    static final String SCHEMA = """
            apiVersion: flowcontrol.apiserver.k8s.io/v1
            kind: FlowSchema
            metadata: {name: flood}
            spec:
              matchingPrecedence: 500
              priorityLevelConfiguration: {name: flood-level}
              distinguisherMethod: {type: ByUser}
              rules:
              - subjects: [{kind: User, user: {name: flood}}]
                resourceRules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"], clusterScope: true}]
                nonResourceRules: [{verbs: ["*"], nonResourceURLs: ["*"]}]
            """;

    @BeforeAll
    static void floodUser() {
        KAPI.kubectl().run("create", "clusterrolebinding", "flood", "--clusterrole=cluster-admin", "--user=flood")
                .assertOk();
    }

    private static String uid(String kind, String name) {
        return KAPI.kubectl().run("get", kind, name, "-o", "jsonpath={.metadata.uid}").assertOk().stdout();
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "never: " + what);
            Thread.sleep(100);
        }
    }

    @Test
    @Order(1)
    @DisplayName("kubectl get --raw /api -v=8 shows both X-Kubernetes-PF headers, the exempt schema's and level's uids")
    void headers() throws InterruptedException {
        await("the exempt objects exist", () -> KAPI.kubectl().run("get", "flowschema", "exempt").exitCode() == 0);
        Kubectl.Result r = KAPI.kubectl().run("get", "--raw", "/api", "-v=8").assertOk();
        String log = r.stderr().toLowerCase(Locale.ROOT);
        assertTrue(log.contains("x-kubernetes-pf-flowschema-uid: " + uid("flowschema", "exempt")), r.stderr());
        assertTrue(log.contains("x-kubernetes-pf-prioritylevel-uid: " + uid("prioritylevelconfiguration", "exempt")),
                r.stderr());
    }

    @Test
    @Order(2)
    @DisplayName("a level of one seat, no queues: flood's second concurrent request gets 429 with Retry-After, the admin is served")
    void oneSeat() throws Exception {
        KAPI.kubectl().runWithInput(level(1), "apply", "-f", "-").assertOk();
        KAPI.kubectl().runWithInput(SCHEMA, "apply", "-f", "-").assertOk();
        String levelUid = uid("prioritylevelconfiguration", "flood-level");
        try (ApiClient flood = ApiClient.of(KAPI.kapi().kubeconfig(), Map.of("Impersonate-User", "flood"));
             ApiClient admin = KAPI.client()) {
            await("flood is classified to its level", () -> levelUid.equals(
                    flood.exchange(LIST).headers().firstValue("X-Kubernetes-PF-PriorityLevel-UID").orElse("")));
            CompletableFuture<HttpResponse<String>> holding = CompletableFuture.supplyAsync(() -> flood.exchange(SLOW_LIST));
            HttpResponse<String> rejected = null;
            for (int i = 0; i < 20 && rejected == null; i++) {
                Thread.sleep(50);
                HttpResponse<String> r = flood.exchange(LIST);
                rejected = r.statusCode() == 429 ? r : null;
            }
            assertTrue(rejected != null, "no 429 while flood's first request held the seat");
            assertEquals("Too many requests, please try again later.\n", rejected.body());
            assertTrue(rejected.headers().firstValue("Retry-After").orElse("").matches("[1-9][0-9]*"), rejected.headers().toString());
            assertEquals(levelUid, rejected.headers().firstValue("X-Kubernetes-PF-PriorityLevel-UID").orElse(""));
            assertEquals(uid("flowschema", "flood"), rejected.headers().firstValue("X-Kubernetes-PF-FlowSchema-UID").orElse(""));
            assertEquals(200, admin.get(LIST).status(), "the admin is unaffected");
            String dump = KAPI.kubectl().run("get", "--raw", "/debug/api_priority_and_fairness/dump_priority_levels")
                    .assertOk().stdout();
            assertTrue(dump.startsWith("PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests,"), dump);
            // flood-level: no queues, nothing waiting, its one request running (or just done), at least one rejected
            assertTrue(dump.lines().anyMatch(l -> l.matches(
                    "flood-level,\\s+0,\\s+(true|false),\\s+false,\\s+0,\\s+[01],\\s+\\d+,\\s+[1-9]\\d*,\\s+0,\\s+0")), dump);
            assertEquals(504, holding.get().statusCode(), "the slow list ends as the cache never reaches its version");
        }
    }

    @Test
    @Order(3)
    @DisplayName("more shares take effect without a restart: the same concurrent requests are both served")
    void liveReconfiguration() throws Exception {
        KAPI.kubectl().runWithInput(level(1), "apply", "-f", "-").assertOk();
        KAPI.kubectl().runWithInput(SCHEMA, "apply", "-f", "-").assertOk();
        KAPI.kubectl().runWithInput(level(100), "apply", "-f", "-").assertOk();
        try (ApiClient flood = ApiClient.of(KAPI.kapi().kubeconfig(), Map.of("Impersonate-User", "flood"))) {
            await("the new limit applies", () -> {
                CompletableFuture<HttpResponse<String>> holding = CompletableFuture.supplyAsync(() -> flood.exchange(SLOW_LIST));
                try {
                    Thread.sleep(200);
                    return flood.exchange(LIST).statusCode() == 200;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                } finally {
                    holding.cancel(true);
                }
            });
        }
    }

    @Test
    @Order(4)
    @DisplayName("a FlowSchema naming a missing level is Dangling (NotFound), and Found again once the level exists")
    void dangling() throws InterruptedException {
        KAPI.kubectl().runWithInput(SCHEMA, "apply", "-f", "-").assertOk();
        KAPI.kubectl().run("delete", "prioritylevelconfiguration", "flood-level", "--ignore-not-found").assertOk();
        String condition = "jsonpath={.status.conditions[?(@.type==\"Dangling\")].status}/"
                + "{.status.conditions[?(@.type==\"Dangling\")].reason}";
        await("Dangling True", () -> KAPI.kubectl().run("get", "flowschema", "flood", "-o", condition).stdout()
                .equals("True/NotFound"));
        String message = KAPI.kubectl().run("get", "flowschema", "flood", "-o",
                "jsonpath={.status.conditions[?(@.type==\"Dangling\")].message}").assertOk().stdout();
        assertEquals("This FlowSchema references the PriorityLevelConfiguration object named \"flood-level\" but there "
                + "is no such object", message);
        KAPI.kubectl().runWithInput(level(1), "apply", "-f", "-").assertOk();
        await("Dangling False", () -> KAPI.kubectl().run("get", "flowschema", "flood", "-o", condition).stdout()
                .equals("False/Found"));
    }

    @Test
    @Order(5)
    @DisplayName("the debug dumps answer an admin in kube's layout and refuse a user without access")
    void dumps() {
        String queues = KAPI.kubectl().run("get", "--raw", "/debug/api_priority_and_fairness/dump_queues").assertOk().stdout();
        assertTrue(queues.startsWith("PriorityLevelName, Index,  PendingRequests, ExecutingRequests, SeatsInUse,"), queues);
        assertTrue(queues.lines().anyMatch(l -> l.startsWith("workload-low,") && l.contains("0.0000")), queues);
        String requests = KAPI.kubectl().run("get", "--raw",
                "/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1").assertOk().stdout();
        assertTrue(requests.startsWith("PriorityLevelName, FlowSchemaName, QueueIndex, RequestIndexInQueue,"), requests);
        assertTrue(requests.contains("UserName"), requests);
        Kubectl.Result denied = KAPI.kubectl().run("get", "--raw", "/debug/api_priority_and_fairness/dump_priority_levels",
                "--as=nobody").assertFailed();
        assertTrue(denied.stderr().contains("Forbidden") || denied.stderr().contains("forbidden"), denied.toString());
    }
}
