package io.kapi.flowcontrol;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.flowcontrol.FlowControl.Admission;
import io.kapi.metrics.Metrics;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FlowControlMetricsTest {

    @Test
    @DisplayName("dispatches, rejections, waits, running requests and seats and the limits show as kube's families")
    void families() throws Exception {
        Metrics metrics = Metrics.defaults();
        PriorityAndFairness apf = new PriorityAndFairness(600, ObjectCounts.NONE);
        apf.onEvent(new FlowControlMetrics(metrics, apf));
        apf.configure(List.of(ClassifierTest.schema("all", 500, "pl", "ByUser", DispatchTest.EVERYONE)),
                List.of(DispatchTest.rejecting("pl", 1, 0, 0), DispatchTest.rejecting("catch-all", 599, 0, 0)));
        Admission running = DispatchTest.admit(apf, DispatchTest.request("u", "g"));
        DispatchTest.admit(apf, DispatchTest.request("u", "g"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, metrics.scrape());
        String text = out.toString(StandardCharsets.UTF_8);
        for (String line : List.of(
                "apiserver_flowcontrol_dispatched_requests_total{flow_schema=\"all\",priority_level=\"pl\"} 1",
                "apiserver_flowcontrol_rejected_requests_total{flow_schema=\"all\",priority_level=\"pl\",reason=\"concurrency-limit\"} 1",
                "apiserver_flowcontrol_current_executing_requests{flow_schema=\"all\",priority_level=\"pl\"} 1",
                "apiserver_flowcontrol_current_executing_seats{flow_schema=\"all\",priority_level=\"pl\"} 1",
                "apiserver_flowcontrol_nominal_limit_seats{priority_level=\"pl\"} 1",
                "apiserver_flowcontrol_current_limit_seats{priority_level=\"pl\"} 1",
                "apiserver_flowcontrol_request_wait_duration_seconds_count{execute=\"false\",flow_schema=\"all\",priority_level=\"pl\"} 1")) {
            assertTrue(text.contains(line), line + " in\n" + text.lines()
                    .filter(l -> l.startsWith("apiserver_flowcontrol")).toList());
        }
        DispatchTest.release(running);
    }

    @Test
    @DisplayName("a request waiting in its queue shows in apiserver_current_inqueue_requests, the most of the last second")
    void inQueueWatermark() throws Exception {
        Metrics metrics = Metrics.defaults();
        PriorityAndFairness apf = new PriorityAndFairness(600, ObjectCounts.NONE);
        apf.countWaiting(metrics.requests());
        apf.configure(List.of(ClassifierTest.schema("all", 500, "pl", null, DispatchTest.EVERYONE)),
                List.of(DispatchTest.queuing("pl", 1, 1, 1, 5), DispatchTest.rejecting("catch-all", 599, 0, 0)));
        Admission holder = DispatchTest.admit(apf, DispatchTest.request("u", "g"));
        java.util.concurrent.CompletableFuture<Admission> queued = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> DispatchTest.admit(apf, DispatchTest.request("u", "g")));
        String waiting = "apiserver_current_inqueue_requests{request_kind=\"readOnly\"} 1";
        long end = System.nanoTime() + java.time.Duration.ofSeconds(5).toNanos();
        while (!scrape(metrics).contains(waiting) && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertTrue(scrape(metrics).contains(waiting), scrape(metrics));
        DispatchTest.release(holder);
        DispatchTest.release(queued.get());
        // once the second in which it waited has ended, that second's most is shown; after the next, none
        Thread.sleep(WatermarkMaintenance.PERIOD.toMillis() + 50);
        metrics.requests().maintainWatermarks();
        assertTrue(scrape(metrics).contains(waiting), scrape(metrics));
        Thread.sleep(WatermarkMaintenance.PERIOD.toMillis() + 50);
        metrics.requests().maintainWatermarks();
        assertTrue(scrape(metrics).contains("apiserver_current_inqueue_requests{request_kind=\"readOnly\"} 0"),
                scrape(metrics));
    }

    private static String scrape(Metrics metrics) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, metrics.scrape());
        return out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("apiserver_current_inqueue"))
                .reduce("", (a, b) -> a + b + "\n");
    }
}
