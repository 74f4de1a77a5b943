package io.kapi.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("kube's histograms on striped counters")
final class ClassicHistogramTest {

    private static final double[] BOUNDS = {0.005, 0.025, 0.1, 0.5, 1.0, 2.5};

    @Test
    @DisplayName("expose what the client library's classic histogram exposes for the same observations, in both formats")
    void sameAsLibrary() throws IOException {
        Definition labelled = Definition.of("kapi_test_duration_seconds", Stability.ALPHA, "A test histogram.",
                "operation", "rejected");
        Definition plain = Definition.of("kapi_test_plain_seconds", Stability.ALPHA, "Without labels.");
        PrometheusRegistry ours = new PrometheusRegistry();
        ClassicHistogram striped = new ClassicHistogram(labelled, BOUNDS);
        ClassicHistogram stripedPlain = new ClassicHistogram(plain, BOUNDS);
        ours.register(striped);
        ours.register(stripedPlain);
        PrometheusRegistry library = new PrometheusRegistry();
        Histogram reference = Histogram.builder().name(labelled.name()).help(labelled.exposedHelp())
                .labelNames(labelled.labelNames()).classicOnly().classicUpperBounds(BOUNDS).withoutExemplars()
                .register(library);
        Histogram.builder().name(plain.name()).help(plain.exposedHelp()).classicOnly().classicUpperBounds(BOUNDS)
                .withoutExemplars().register(library);
        Random random = new Random(7);
        List<Double> values = new ArrayList<>(List.of(0.0, 0.005, 0.025, 2.5, 2.5000001, 1e9, -1.0));
        for (int i = 0; i < 500; i++) {
            values.add(random.nextDouble() * 3);
        }
        for (double v : values) {
            String op = v < 1 ? "CREATE" : "UPDATE";
            String rejected = Boolean.toString(v > 2);
            striped.series(op, rejected).observe(v);
            reference.labelValues(op, rejected).observe(v);
        }
        assertEquals(withoutCreated(text(library, false)), withoutCreated(text(ours, false)));
        assertEquals(withoutCreated(text(library, true)), withoutCreated(text(ours, true)));
        assertEquals(values.stream().filter(v -> v < 1).count(), striped.series("CREATE", "false").getCount()
                + striped.series("CREATE", "true").getCount());
    }

    @Test
    @DisplayName("observations from many threads at once are all counted, and summed")
    void concurrent() throws InterruptedException {
        ClassicHistogram histogram = new ClassicHistogram(Definition.of("kapi_test_seconds", Stability.ALPHA, "Test."),
                BOUNDS);
        ClassicHistogram.Series series = histogram.series();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 25_000; i++) {
                    series.observe(0.25);
                }
            });
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(100_000, series.getCount());
        assertEquals(25_000.0, series.getSum(), 1e-6);
    }

    private static String text(PrometheusRegistry registry, boolean openMetrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats formats = ExpositionFormats.init();
        if (openMetrics) {
            formats.getOpenMetricsTextFormatWriter().write(out, registry.scrape());
        } else {
            formats.getPrometheusTextFormatWriter().write(out, registry.scrape());
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Creation times (where a format writes them) differ by when each series was made; nothing else may. */
    private static String withoutCreated(String text) {
        return text.replaceAll("(?m)^\\S+_created\\S* .*\\n", "");
    }
}
