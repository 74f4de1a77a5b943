package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --tracing-config-file}: a create's spans reach a real OTLP/gRPC receiver with their parent
 * links (the caller's traceparent → the request → authentication, authorization, the handler → admission,
 * the webhook call and its HTTP exchange, the storage write), and the webhook gets the traceparent of
 * that exchange. Sampling 0: only requests whose caller sampled them are traced.
 */
final class TracingIT {

    private static final OtlpReceiver COLLECTOR = new OtlpReceiver();
    private static final TestWebhookServer WEBHOOKS = webhooks();

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--tracing-config-file=" + tracingConfig());

    private static TestWebhookServer webhooks() {
        try {
            return new TestWebhookServer();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path tracingConfig() {
        try {
            Path file = Files.createTempFile("kapi-tracing-", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, "apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n"
                    + "endpoint: 127.0.0.1:" + COLLECTOR.port() + "\nsamplingRatePerMillion: 0\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        WEBHOOKS.close();
        COLLECTOR.close();
    }

    @Test
    @DisplayName("a create sampled by its caller: its spans nest as kube's, and the webhook gets the traceparent")
    void createSpans() throws Exception {
        KAPI.kubectl().runWithInput("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n"
                + "metadata:\n  name: trace.kapi.test\nwebhooks:\n- name: trace.kapi.test\n  clientConfig:\n"
                + "    url: " + WEBHOOKS.url("/trace") + "\n    caBundle: " + WEBHOOKS.caBundle() + "\n  rules:\n"
                + "  - apiGroups: [\"\"]\n    apiVersions: [\"v1\"]\n    operations: [\"CREATE\"]\n"
                + "    resources: [\"configmaps\"]\n  sideEffects: None\n  admissionReviewVersions: [\"v1\"]\n",
                "apply", "-f", "-").assertOk();
        HttpClient http = HttpClient.newBuilder().sslContext(KAPI.kapi().kubeconfig().sslContext()).build();
        String traceId = null;
        String callerSpan = null;
        String webhookTraceparent = null;
        long deadline = System.nanoTime() + 30_000_000_000L;
        for (int i = 0; webhookTraceparent == null && System.nanoTime() < deadline; i++) {
            traceId = randomHex(16);
            callerSpan = randomHex(8);
            int status = create(http, "traced-" + i, "00-" + traceId + "-" + callerSpan + "-01");
            assertEquals(201, status);
            String id = traceId;
            webhookTraceparent = WEBHOOKS.traceparents("/trace").stream().filter(t -> t.contains(id)).findFirst().orElse(null);
            if (webhookTraceparent == null) {
                Thread.sleep(200);
            }
        }
        assertTrue(webhookTraceparent != null, "the webhook was never called with the create's trace");

        String trace = traceId;
        List<OtlpReceiver.ReceivedSpan> spans = awaitSpans(s -> s.stream().anyMatch(x -> x.traceId().equals(trace)
                && x.name().equals("POST /api/v1/namespaces/{:namespace}/configmaps")) && s.stream()
                .anyMatch(x -> x.traceId().equals(trace) && x.name().equals("Create etcd3")))
                .stream().filter(s -> s.traceId().equals(trace)).toList();
        Map<String, OtlpReceiver.ReceivedSpan> byId = spans.stream()
                .collect(Collectors.toMap(OtlpReceiver.ReceivedSpan::spanId, s -> s));
        OtlpReceiver.ReceivedSpan request = named(spans, "POST /api/v1/namespaces/{:namespace}/configmaps");
        assertEquals(callerSpan, request.parentSpanId(), "the request's span is the caller's child: " + spans);
        assertEquals(2, request.kind(), "SPAN_KIND_SERVER");
        for (String child : List.of("Authenticate", "Authorize", "Create")) {
            assertEquals(request.spanId(), named(spans, child).parentSpanId(), child + " under the request: " + spans);
        }
        OtlpReceiver.ReceivedSpan create = named(spans, "Create");
        OtlpReceiver.ReceivedSpan call = named(spans, "Call validating webhook");
        assertEquals(named(spans, "Validate ValidatingAdmissionWebhook").spanId(), call.parentSpanId());
        assertTrue(descends(call, create, byId), "the webhook call within Create: " + spans);
        assertTrue(descends(named(spans, "Create etcd3"), create, byId), "the storage write within Create: " + spans);
        OtlpReceiver.ReceivedSpan exchange = spans.stream().filter(s -> s.name().equals("HTTP POST")
                && s.parentSpanId().equals(call.spanId())).findFirst().orElseThrow();
        assertEquals(3, exchange.kind(), "SPAN_KIND_CLIENT");
        assertEquals("00-" + traceId + "-" + exchange.spanId() + "-01", webhookTraceparent);
    }

    @Test
    @DisplayName("with samplingRatePerMillion 0, a request its caller did not sample makes no span")
    void unsampledRequest() throws Exception {
        try (ApiClient admin = ApiClient.of(KAPI.kapi().kubeconfig())) {
            assertEquals(200, admin.get("/api/v1/namespaces/kube-system/configmaps?limit=7").status());
        }
        Thread.sleep(2500); // more than the batch processor's delay (1 s)
        assertTrue(COLLECTOR.spans().stream().noneMatch(s -> s.name().equals("GET /api/v1/namespaces/{:namespace}/configmaps")),
                COLLECTOR.spans().toString());
    }

    private static int create(HttpClient http, String name, String traceparent) throws Exception {
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"}}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(KAPI.kapi().kubeconfig().server()
                        + "/api/v1/namespaces/default/configmaps"))
                .header("Content-Type", "application/json").header("traceparent", traceparent)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static boolean descends(OtlpReceiver.ReceivedSpan span, OtlpReceiver.ReceivedSpan ancestor,
                                    Map<String, OtlpReceiver.ReceivedSpan> byId) {
        for (OtlpReceiver.ReceivedSpan s = span; s != null; s = byId.get(s.parentSpanId())) {
            if (s.parentSpanId().equals(ancestor.spanId())) {
                return true;
            }
        }
        return false;
    }

    private static OtlpReceiver.ReceivedSpan named(List<OtlpReceiver.ReceivedSpan> spans, String name) {
        Optional<OtlpReceiver.ReceivedSpan> span = spans.stream().filter(s -> s.name().equals(name)).findFirst();
        assertTrue(span.isPresent(), "no span " + name + " in " + spans);
        return span.get();
    }

    private static List<OtlpReceiver.ReceivedSpan> awaitSpans(java.util.function.Predicate<List<OtlpReceiver.ReceivedSpan>> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!done.test(COLLECTOR.spans()) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(done.test(COLLECTOR.spans()), "spans did not arrive: " + COLLECTOR.spans());
        return COLLECTOR.spans();
    }

    private static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        b[0] |= 1; // never all zeros (an invalid id)
        return HexFormat.of().formatHex(b);
    }
}
