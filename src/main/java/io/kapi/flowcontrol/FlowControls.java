package io.kapi.flowcontrol;

import io.kapi.client.ResourceClient;
import io.kapi.endpoint.DelegationChain;
import io.kapi.endpoint.RestHandler;
import io.kapi.health.PostStartHook;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.metrics.Metrics;
import java.util.List;

/**
 * Makes the server's flow control from its flags: API Priority and Fairness configured live from the
 * FlowSchema and PriorityLevelConfiguration objects (with its debug endpoints), or the max-in-flight
 * limits when it is disabled.
 */
public final class FlowControls {

    static final GroupVersionResource FLOW_SCHEMAS =
            new GroupVersionResource("flowcontrol.apiserver.k8s.io", "v1", "flowschemas");
    static final GroupVersionResource PRIORITY_LEVELS =
            new GroupVersionResource("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations");

    private FlowControls() {
    }

    /**
     * The flags.
     *
     * @param priorityAndFairness {@code --enable-priority-and-fairness}
     * @param maxRequestsInflight {@code --max-requests-inflight}
     * @param maxMutatingRequestsInflight {@code --max-mutating-requests-inflight}
     */
    public record Settings(boolean priorityAndFairness, int maxRequestsInflight, int maxMutatingRequestsInflight) {
        public static final Settings DEFAULT = new Settings(true, 400, 200);
    }

    /**
     * The made flow control.
     *
     * @param gate what the filter asks
     * @param dispatcher API Priority and Fairness, or null when disabled
     * @param hooks its post-start hooks ({@code priority-and-fairness-config-consumer} and
     *        {@code priority-and-fairness-filter} with API Priority and Fairness, {@code max-in-flight-filter} without)
     * @param resources to close with the server
     */
    public record Wired(FlowControl gate, PriorityAndFairness dispatcher, List<PostStartHook> hooks,
                        AutoCloseable resources) {

        /** {@code api} with the debug endpoints in front (when API Priority and Fairness is on). */
        public RestHandler withDebugEndpoints(RestHandler api) {
            if (dispatcher == null) {
                return api;
            }
            return new DelegationChain(List.of(new DebugDumps(dispatcher), api));
        }
    }

    /**
     * @param statusWriter the FlowSchemas as the server writes their status (loopback identity)
     * @param counts the watch cache's counts, for work estimates
     * @param metrics where the {@code apiserver_flowcontrol_*} families are registered
     */
    public static Wired create(Settings settings, SharedInformers informers, ResourceClient statusWriter,
                               ObjectCounts counts, Metrics metrics) {
        if (!settings.priorityAndFairness()) {
            WatermarkMaintenance watermarks = new WatermarkMaintenance("max-in-flight-filter", metrics.requests());
            return new Wired(new MaxInFlight(settings.maxRequestsInflight(), settings.maxMutatingRequestsInflight()),
                    null, List.of(watermarks), watermarks);
        }
        PriorityAndFairness dispatcher = new PriorityAndFairness(
                settings.maxRequestsInflight() + settings.maxMutatingRequestsInflight(), counts);
        dispatcher.onEvent(new FlowControlMetrics(metrics, dispatcher));
        dispatcher.countWaiting(metrics.requests());
        ConfigController controller = new ConfigController(dispatcher, informers.informer(FLOW_SCHEMAS),
                informers.informer(PRIORITY_LEVELS), statusWriter);
        WatermarkMaintenance watermarks = new WatermarkMaintenance("priority-and-fairness-filter", metrics.requests());
        return new Wired(dispatcher, dispatcher, List.of(controller, watermarks), () -> {
            watermarks.close();
            controller.close();
        });
    }
}
