package io.kapi.bench.admission;

import io.kapi.e2e.TestWebhookServer;
import io.kapi.harness.ApiHarness;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The latency the admission chain adds to a create: configmaps created one after the other through the
 * whole API in memory (the filter chain, admission, storage; no sockets to the API), with no admission
 * configuration, with one validating webhook (a real HTTPS server on 127.0.0.1 answering allowed), and
 * with one ValidatingAdmissionPolicy of one CEL validation; then pods (restricted-compliant, with CPU and
 * memory requests) in a namespace without labels or quota, in one enforcing PodSecurity {@code restricted},
 * and in one that also has a ResourceQuota on pods, CPU and memory. The setups alternate over rounds, each
 * on a fresh server; the report gives the medians over rounds of p50 and p99, and their ratio to the
 * first setup of their kind ("none", "pods").
 *
 * <p>Run with {@code bench/admission.sh [--rounds=3] [--creates=2000]}.
 */
public final class AdmissionLatencyBench {

    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    private static final String PODS = "/api/v1/namespaces/bench/pods";
    private static final List<String> SETUPS = List.of("none", "one webhook", "one CEL policy", "pods", "pods+PSA",
            "pods+PSA+quota");
    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\"},"
            + "\"spec\":{\"securityContext\":{\"runAsNonRoot\":true,\"seccompProfile\":{\"type\":\"RuntimeDefault\"}},"
            + "\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"securityContext\":"
            + "{\"allowPrivilegeEscalation\":false,\"capabilities\":{\"drop\":[\"ALL\"]}},"
            + "\"resources\":{\"requests\":{\"cpu\":\"1m\",\"memory\":\"1Mi\"},\"limits\":{\"cpu\":\"1m\",\"memory\":\"1Mi\"}}}]}}";

    private AdmissionLatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String a : args) {
            String[] kv = a.replaceFirst("^--", "").split("=", 2);
            opts.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
        int creates = Integer.parseInt(opts.getOrDefault("creates", "2000"));
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        SETUPS.forEach(s -> results.put(s, new ArrayList<>()));
        try (TestWebhookServer webhooks = new TestWebhookServer()) {
            List<String> order = new ArrayList<>(SETUPS);
            for (int r = 1; r <= rounds; r++) {
                for (String setup : order) {
                    System.err.printf("== round %d: %s%n", r, setup);
                    results.get(setup).add(round(setup, webhooks, creates));
                }
                order = order.reversed();
            }
        }
        System.out.printf("%nAdmission latency per create (configmaps; pods for the pods setups), in memory, %d cores, %d rounds of %d creates; "
                + "medians over rounds%n", Runtime.getRuntime().availableProcessors(), rounds, creates);
        System.out.printf("%-16s %10s %10s %10s %10s%n", "setup", "p50 (us)", "p99 (us)", "p50 ratio", "p99 ratio");
        for (String setup : SETUPS) {
            double[] base = medians(results.get(setup.startsWith("pods") ? "pods" : "none"));
            double[] m = medians(results.get(setup));
            System.out.printf("%-16s %10.0f %10.0f %10.2f %10.2f%n", setup, m[0], m[1], m[0] / base[0], m[1] / base[1]);
        }
    }

    /** {p50, p99} in microseconds of {@code creates} creates after a warm-up. */
    private static double[] round(String setup, TestWebhookServer webhooks, int creates) throws Exception {
        try (ApiHarness api = new ApiHarness()) {
            configure(api, setup, webhooks);
            boolean pods = setup.startsWith("pods");
            for (int i = 0; i < 300; i++) {
                create(api, pods, "warm-" + i);
            }
            long[] nanos = new long[creates];
            for (int i = 0; i < creates; i++) {
                long start = System.nanoTime();
                create(api, pods, "c-" + i);
                nanos[i] = System.nanoTime() - start;
            }
            if (setup.endsWith("quota")) {
                String q = api.get("/api/v1/namespaces/bench/resourcequotas/q").text();
                if (!q.contains("\"pods\":\"" + (creates + 300) + "\"")) {
                    throw new IllegalStateException("the quota was not charged for every pod: " + q);
                }
            }
            Arrays.sort(nanos);
            return new double[] {nanos[creates / 2] / 1e3, nanos[(int) (creates * 0.99)] / 1e3};
        }
    }

    private static void create(ApiHarness api, String name) {
        create(api, false, name);
    }

    private static void create(ApiHarness api, boolean pod, String name) {
        ApiHarness.Reply r = pod ? api.post(PODS, POD.formatted(name))
                : api.post(CONFIGMAPS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name + "\"},\"data\":{\"k\":\"v\"}}");
        if (r.code() != 201) {
            throw new IllegalStateException("create " + name + ": " + r.code() + " " + r.text());
        }
    }

    private static void configure(ApiHarness api, String setup, TestWebhookServer webhooks) throws InterruptedException {
        String rule = "{\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],\"resources\":[\"configmaps\"]}";
        switch (setup) {
            case "one webhook" -> {
                ok(api.post("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
                        "{\"metadata\":{\"name\":\"allow.kapi.test\"},\"webhooks\":[{\"name\":\"allow.kapi.test\","
                                + "\"clientConfig\":{\"url\":\"" + webhooks.url("/allow") + "\",\"caBundle\":\""
                                + webhooks.caBundle() + "\"},\"rules\":[" + rule + "],\"sideEffects\":\"None\","
                                + "\"admissionReviewVersions\":[\"v1\"]}]}"));
                int before = webhooks.received("/allow").size();
                awaitSeen(api, () -> webhooks.received("/allow").size() > before);
            }
            case "one CEL policy" -> {
                ok(api.post("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
                        "{\"metadata\":{\"name\":\"no-probe\"},\"spec\":{\"failurePolicy\":\"Fail\",\"matchConstraints\":"
                                + "{\"resourceRules\":[" + rule + "]},\"validations\":[{\"expression\":"
                                + "\"object.metadata.name != 'probe'\"}]}}"));
                ok(api.post("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
                        "{\"metadata\":{\"name\":\"no-probe\"},\"spec\":{\"policyName\":\"no-probe\","
                                + "\"validationActions\":[\"Deny\"]}}"));
                awaitSeen(api, () -> api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"probe\"}}").code() == 422);
            }
            case "pods" -> namespace(api, "{}");
            case "pods+PSA" -> namespace(api, "{\"pod-security.kubernetes.io/enforce\":\"restricted\"}");
            case "pods+PSA+quota" -> {
                namespace(api, "{\"pod-security.kubernetes.io/enforce\":\"restricted\"}");
                String hard = "{\"pods\":\"100000\",\"requests.cpu\":\"1000\",\"requests.memory\":\"1000Gi\","
                        + "\"limits.cpu\":\"1000\",\"limits.memory\":\"1000Gi\"}";
                ok(api.post("/api/v1/namespaces/bench/resourcequotas", "{\"metadata\":{\"name\":\"q\"},\"spec\":{\"hard\":"
                        + hard + "}}"));
                // the status the quota controller would write first (the harness runs no controllers): from then on
                // every create is charged to it
                String used = "{\"pods\":\"0\",\"requests.cpu\":\"0\",\"requests.memory\":\"0\",\"limits.cpu\":\"0\","
                        + "\"limits.memory\":\"0\"}";
                ApiHarness.Reply status = api.put("/api/v1/namespaces/bench/resourcequotas/q/status",
                        "{\"metadata\":{\"name\":\"q\",\"namespace\":\"bench\"},\"spec\":{\"hard\":" + hard
                                + "},\"status\":{\"hard\":" + hard + ",\"used\":" + used + "}}");
                if (status.code() != 200) {
                    throw new IllegalStateException(status.code() + " " + status.text());
                }
            }
            default -> { }
        }
    }

    private static void namespace(ApiHarness api, String labels) {
        ok(api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"bench\",\"labels\":" + labels + "}}"));
    }

    private static void ok(ApiHarness.Reply r) {
        if (r.code() != 201) {
            throw new IllegalStateException(r.code() + " " + r.text());
        }
    }

    private static void awaitSeen(ApiHarness api, java.util.function.BooleanSupplier seen) throws InterruptedException {
        Instant end = Instant.now().plus(Duration.ofSeconds(30));
        int i = 0;
        while (!seen.getAsBoolean()) {
            if (Instant.now().isAfter(end)) {
                throw new IllegalStateException("configuration not seen in 30s");
            }
            create(api, "seen-" + i++);
            Thread.sleep(50);
        }
    }

    private static double[] medians(List<double[]> rounds) {
        double[] p50 = rounds.stream().mapToDouble(r -> r[0]).sorted().toArray();
        double[] p99 = rounds.stream().mapToDouble(r -> r[1]).sorted().toArray();
        return new double[] {p50[p50.length / 2], p99[p99.length / 2]};
    }
}
