package io.kapi.flowcontrol;

import io.kapi.health.PostStartHook;
import io.kapi.informers.PassController;
import io.kapi.metrics.RequestMetrics;
import java.time.Duration;

/**
 * kube-apiserver's watermark maintenance of its flow-control filter (post-start hook
 * {@code priority-and-fairness-filter}, or {@code max-in-flight-filter} without API Priority and Fairness): every
 * second the most requests in flight and in queue of the second gone become what
 * {@code apiserver_current_inflight_requests} and {@code apiserver_current_inqueue_requests} show, and a new
 * second starts, however seldom they are scraped.
 */
final class WatermarkMaintenance implements PostStartHook, AutoCloseable {

    static final Duration PERIOD = Duration.ofSeconds(1);

    private final String name;
    private final PassController passes;

    WatermarkMaintenance(String name, RequestMetrics requests) {
        this.name = name;
        this.passes = new PassController(name + "-watermarks", Duration.ZERO, requests::maintainWatermarks)
                .resyncEvery(PERIOD);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void run() {
        passes.start();
    }

    @Override
    public void close() {
        passes.close();
    }
}
