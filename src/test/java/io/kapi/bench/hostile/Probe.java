package io.kapi.bench.hostile;

import io.kapi.e2e.Kubeconfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A well-behaved client measuring what others' attacks cost it: one GET of a small object every 20 ms on
 * its own HTTP/2 connection, from 127.0.0.1, for as long as it runs. Latencies of answered GETs are kept;
 * failures and timeouts (10 s) are counted.
 */
final class Probe implements AutoCloseable {

    private final HttpClient client;
    private final HttpRequest get;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private long[] latencies = new long[4096];
    private int n;
    private int failed;

    Probe(Kubeconfig kubeconfig, String path) {
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(kubeconfig.sslContext())
                .connectTimeout(Duration.ofSeconds(10)).build();
        URI uri = kubeconfig.server().resolve(path);
        this.get = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).header("Accept", "application/json").build();
        this.thread = Thread.ofPlatform().name("probe").start(this::loop);
    }

    private void loop() {
        while (running.get()) {
            long t0 = System.nanoTime();
            try {
                HttpResponse<Void> r = client.send(get, HttpResponse.BodyHandlers.discarding());
                record(r.statusCode() == 200, System.nanoTime() - t0);
            } catch (Exception e) {
                record(false, 0);
            }
            long left = 20_000_000 - (System.nanoTime() - t0);
            if (left > 0) {
                try {
                    Thread.sleep(left / 1_000_000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private synchronized void record(boolean ok, long nanos) {
        if (!ok) {
            failed++;
            return;
        }
        if (n == latencies.length) {
            latencies = Arrays.copyOf(latencies, n * 2);
        }
        latencies[n++] = nanos;
    }

    /** Stops probing and returns {@code "p50 x ms, p99 y ms, max z ms (n GETs, f failed)"}. */
    synchronized Result result() {
        long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        return new Result(percentile(sorted, 0.50), percentile(sorted, 0.99), n == 0 ? Double.NaN : sorted[n - 1] / 1e6,
                n, failed);
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
        return sorted[Math.max(index, 0)] / 1e6;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join();
    }

    record Result(double p50, double p99, double max, int gets, int failed) {
        @Override
        public String toString() {
            return "p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d GETs, %d failed)".formatted(p50, p99, max, gets, failed);
        }
    }
}
