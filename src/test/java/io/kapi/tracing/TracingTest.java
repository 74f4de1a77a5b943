package io.kapi.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

final class TracingTest {

    @AfterEach
    void off() {
        Tracing.shutdown();
    }

    @Test
    @DisplayName("without --tracing-config-file every call is the no-op scope and nothing is injected")
    void off_isNoOp() {
        assertFalse(Tracing.enabled());
        assertSame(TraceScope.NONE, Tracing.startServer("GET", Map.of("traceparent",
                List.of("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")), true));
        assertSame(TraceScope.NONE, Tracing.start("Create etcd3"));
        Tracing.inject((k, v) -> {
            throw new AssertionError("injected " + k);
        });
        assertEquals(0, Tracing.droppedSpans());
    }

    @Test
    @DisplayName("at sampling 0 only a request with a traceparent may be traced: the others skip every tracing step")
    void mayTrace() {
        Map<String, List<String>> parent = Map.of("traceparent",
                List.of("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        assertFalse(Tracing.mayTrace(parent), "tracing off");
        Tracing.install(new TracingConfiguration("127.0.0.1:4317", 0), "test", "test-1");
        assertFalse(Tracing.mayTrace(Map.of()));
        assertTrue(Tracing.mayTrace(parent));
        try (Tracing.Timing ignored = Tracing.authenticating(Map.of())) {
            // nothing is timed for a request that cannot be traced
        }
        assertSame(TraceScope.NONE, Tracing.startServer("GET", Map.of(), true));
        Tracing.shutdown();
        Tracing.install(new TracingConfiguration("127.0.0.1:4317", 1), "test", "test-1");
        assertTrue(Tracing.mayTrace(Map.of()), "roots may be sampled");
    }

    @Test
    @DisplayName("a dead collector never slows spans down: the bounded queue drops, and counts what it drops")
    void deadCollector() throws Exception {
        // a collector that takes the connection and never answers: every export waits for its timeout. (A
        // refused port fails each export at once, and how many batches then drain depends on how warm gRPC is,
        // which other tests in this JVM change: the count below would measure that, not the queue.)
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            deadCollector(silent.getLocalPort());
        }
    }

    private static void deadCollector(int port) {
        Tracing.install(new TracingConfiguration("127.0.0.1:" + port, 1_000_000), "test", "test-1");
        long start = System.nanoTime();
        int spans = 20_000;
        try (TraceScope request = Tracing.startServer("POST", Map.of(), true)) {
            for (int i = 0; i < spans; i++) {
                try (TraceScope child = Tracing.start("Create etcd3", "key", "/registry/configmaps/x")) {
                    child.attribute("i", i);
                }
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 3_000, spans + " spans took " + millis + " ms");
        assertTrue(Tracing.droppedSpans() >= spans - Tracing.MAX_QUEUE - 2_000,
                "dropped " + Tracing.droppedSpans() + " of " + spans);
    }

    @Test
    @DisplayName("a request span is the child of a trusted caller's traceparent, and its own traceparent goes on")
    void parentAndInject() {
        Tracing.install(new TracingConfiguration("127.0.0.1:4317", 0), "test", "test-1");
        String caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        java.util.Map<String, String> sent = new java.util.HashMap<>();
        try (TraceScope request = Tracing.startServer("POST", Map.of("traceparent", List.of(caller)), true)) {
            try (TraceScope call = Tracing.startClient("HTTP POST")) {
                Tracing.inject(sent::put);
            }
        }
        String traceparent = sent.get("traceparent");
        assertTrue(traceparent.startsWith("00-0af7651916cd43dd8448eb211c80319c-"), traceparent);
        assertTrue(traceparent.endsWith("-01"), "sampled, as its parent: " + traceparent);
        assertFalse(traceparent.contains("b7ad6b7169203331"), "a span of its own: " + traceparent);
        sent.clear();
        try (TraceScope request = Tracing.startServer("GET", Map.of(), true)) {
            Tracing.inject(sent::put);
        }
        assertEquals(Map.of(), sent, "rate 0 and no parent: no span, nothing to pass on");
    }

    @Test
    @DisplayName("at sampling 0 a sampled request's children are recorded, on its thread only, and none once it ends")
    void childrenOfSampledRequest() throws Exception {
        Tracing.install(new TracingConfiguration("127.0.0.1:4317", 0), "test", "test-1");
        assertSame(TraceScope.NONE, Tracing.start("Create etcd3"), "no request: no orphan span");
        String caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        try (TraceScope request = Tracing.startServer("POST", Map.of("traceparent", List.of(caller)), true)) {
            try (TraceScope child = Tracing.start("Create etcd3")) {
                assertFalse(child == TraceScope.NONE, "the sampled request's child is recorded");
            }
            TraceScope[] elsewhere = new TraceScope[1];
            Thread other = Thread.ofVirtual().start(() -> elsewhere[0] = Tracing.start("Create etcd3"));
            other.join();
            assertSame(TraceScope.NONE, elsewhere[0], "another thread's requests are not this one's");
        }
        assertSame(TraceScope.NONE, Tracing.start("Create etcd3"), "the request ended: no span is current");
        assertSame(TraceScope.NONE, Tracing.startClient("HTTP POST"));
    }

    @Test
    @DisplayName("an untrusted caller's traceparent is only a link: its request starts a trace of its own, not sampled at rate 0")
    void untrustedCaller() {
        Tracing.install(new TracingConfiguration("127.0.0.1:4317", 0), "test", "test-1");
        java.util.Map<String, String> sent = new java.util.HashMap<>();
        try (TraceScope request = Tracing.startServer("POST", Map.of("traceparent",
                List.of("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")), false)) {
            Tracing.inject(sent::put);
        }
        assertEquals(Map.of(), sent, "rate 0: the caller could not force sampling");
        Tracing.install(new TracingConfiguration("127.0.0.1:4317", 1), "test", "test-1");
        try (TraceScope request = Tracing.startServer("POST", Map.of("traceparent",
                List.of("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")), false)) {
            Tracing.inject(sent::put);
        }
        assertFalse(sent.get("traceparent").contains("0af7651916cd43dd8448eb211c80319c"), "a trace of its own: " + sent);
    }
}
