package io.kapi.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.health.PostStartHook;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.QueueController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * kube-apiserver's legacy token tracking controller (post-start hook
 * {@code start-legacy-token-tracking-controller}): ConfigMap
 * {@code kube-system/kube-apiserver-legacy-service-account-token-tracking} says since which day (UTC,
 * {@code data.since}, {@code 2006-01-02}) the API servers label the legacy tokens they see used
 * ({@link LegacyTokenTracking}); kube-controller-manager's legacy token cleaner reads it before it marks
 * tokens unused. Made at the first start; a {@code since} that is no date is set to today; a deleted one is
 * made again, at most once per 30 minutes (kube's rate, so that servers of a cluster that disagree do not
 * fight over it). Written as the API server itself. Its informer (the shared ConfigMap one) is asked for when the
 * hook runs, not before: run it after the watch caches started, whose start revision an informer asked for
 * earlier would move back.
 */
public final class LegacyTokenTrackingSince implements PostStartHook, AutoCloseable {

    public static final String NAMESPACE = "kube-system";
    public static final String NAME = "kube-apiserver-legacy-service-account-token-tracking";
    public static final String SINCE = "since";
    static final Duration CREATION_INTERVAL = Duration.ofMinutes(30);
    private static final GroupVersionResource CONFIG_MAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final String KEY = NAMESPACE + "/" + NAME;

    private final ResourceClient configMaps;
    private final SharedInformers informers;
    private final Clock clock;
    private final QueueController controller;
    /** The shared ConfigMap informer, once the hook ran. */
    private volatile Informer informer;
    /** When this server last made the ConfigMap, or null. */
    private volatile Instant lastCreated;

    /** @param configMaps core/v1 configmaps, written as kube-apiserver itself */
    public LegacyTokenTrackingSince(ResourceClient configMaps, SharedInformers informers, Clock clock) {
        this.configMaps = configMaps;
        this.informers = informers;
        this.clock = clock;
        this.controller = new QueueController("legacy_token_tracking_controller", 1, key -> reconcile());
    }

    @Override
    public String name() {
        return "start-legacy-token-tracking-controller";
    }

    @Override
    public synchronized void run() {
        if (informer == null) {
            Informer configMapInformer = informers.informer(CONFIG_MAPS);
            configMapInformer.addHandler(EventHandler.onAnyChange(configMap -> {
                ObjectMeta meta = ObjectMeta.of(configMap);
                if (meta.name().equals(NAME) && meta.namespace().equals(NAMESPACE)) {
                    controller.queue().add(KEY);
                }
            }));
            informer = configMapInformer;
        }
        controller.start();
        controller.queue().add(KEY);
    }

    /** Makes the ConfigMap, or mends its date; a refusal other than a race is retried with back-off. */
    private void reconcile() {
        ObjectNode current = informer.get(NAMESPACE, NAME).orElse(null);
        Instant now = clock.instant();
        String today = LocalDate.ofInstant(now, ZoneOffset.UTC).toString();
        if (current == null) {
            Instant last = lastCreated;
            if (last != null && Duration.between(last, now).compareTo(CREATION_INTERVAL) < 0) {
                controller.queue().addAfter(KEY, CREATION_INTERVAL.minus(Duration.between(last, now)));
                return;
            }
            ObjectNode configMap = Json.object();
            configMap.put("apiVersion", "v1").put("kind", "ConfigMap");
            configMap.putObject("metadata").put("name", NAME).put("namespace", NAMESPACE);
            configMap.putObject("data").put(SINCE, today);
            try {
                configMaps.create(NAMESPACE, configMap);
                lastCreated = now;
            } catch (ApiException e) {
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    throw e;
                }
            }
        } else if (!isDate(current.path("data").path(SINCE).asText(""))) {
            ObjectNode mended = current.deepCopy();
            mended.with("data").put(SINCE, today);
            try {
                configMaps.update(mended, "");
            } catch (ApiException e) {
                if (!e.lostRace()) {
                    throw e;
                }
            }
        }
    }

    /** Whether {@code value} is a day as Go's {@code 2006-01-02} layout reads one. */
    static boolean isDate(String value) {
        if (value.length() != 10) {
            return false;
        }
        try {
            LocalDate.parse(value);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    @Override
    public void close() {
        controller.close();
    }
}
