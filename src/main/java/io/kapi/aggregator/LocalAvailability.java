package io.kapi.aggregator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.health.PostStartHook;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.QueueController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ApiServiceConditions;
import io.kapi.machinery.ObjectMeta;
import java.time.Clock;

/**
 * kube-aggregator's local availability controller (post-start hook
 * {@code apiservice-status-local-available-controller}): every APIService that names no service is served by
 * this server and always available, so its {@code Available} condition is kept True, reason {@code Local}:
 * one created so already is (the APIService strategy); one whose status was changed, or that was remote
 * and became local, is written back. Remote APIServices are {@link AggregatorController}'s. Written as the
 * API server itself; a conflict or a delete meanwhile is followed by the informer's next event.
 */
final class LocalAvailability implements PostStartHook, AutoCloseable {

    private final SharedInformers informers;
    private final ResourceClient apiServices;
    private final Clock clock;
    private final QueueController controller;
    private volatile Informer informer;

    LocalAvailability(SharedInformers informers, ResourceClient apiServices, Clock clock) {
        this.informers = informers;
        this.apiServices = apiServices;
        this.clock = clock;
        this.controller = new QueueController("APIServiceLocalAvailabilityController", 1, this::sync);
    }

    @Override
    public String name() {
        return "apiservice-status-local-available-controller";
    }

    @Override
    public synchronized void run() {
        if (informer != null) {
            return;
        }
        Informer i = informers.informer(AggregatorController.API_SERVICES);
        i.addHandler(EventHandler.onAnyChange(apiService -> {
            if (ApiServiceConditions.isLocal(apiService) && !ApiServiceConditions.isLocalAvailable(apiService)) {
                controller.enqueue(apiService);
            }
        }));
        informer = i;
        controller.start();
    }

    private void sync(String key) {
        ObjectNode apiService = informer.get("", QueueController.name(key)).orElse(null);
        if (apiService == null || !ApiServiceConditions.isLocal(apiService)) {
            return;
        }
        ObjectNode changed = apiService.deepCopy();
        if (!ApiServiceConditions.markLocalAvailable(changed, clock.instant())) {
            return;
        }
        try {
            apiServices.update(changed, "status");
        } catch (ApiException e) {
            if (!e.lostRace()) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        controller.close();
    }
}
