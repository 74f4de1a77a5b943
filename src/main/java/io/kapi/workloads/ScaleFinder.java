package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.informers.Informer;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The disruption controller's {@code getExpectedScale}: the sum of the scale of the controllers of a budget's
 * Pods, each counted once. A Pod's controller is found as kube's finders do, in their order: a
 * ReplicationController, a ReplicaSet's Deployment, a ReplicaSet no Deployment controls, a StatefulSet (each
 * by {@code spec.replicas}, from the informers, the uid matching the reference), then any kind served with a
 * {@code scale} subresource ({@code spec.replicas} of its Scale, read through the API). A Pod without a
 * controller is unmanaged and counts nothing; a controller none of them finds is an error.
 */
final class ScaleFinder {

    /** What one count found: the controllers' scale by uid, and the unmanaged Pods. */
    static final class Scale {
        private final Map<String, Integer> byController = new LinkedHashMap<>();
        private final List<String> unmanaged = new ArrayList<>();

        List<String> unmanaged() {
            return unmanaged;
        }
    }

    /** No controller found for a Pod, or one whose kind has no scale: the budget's sync fails with this message. */
    static final class NoController extends RuntimeException {
        NoController(String message) {
            super(message, null, false, false);
        }
    }

    private static final GroupVersionResource RCS = new GroupVersionResource("", "v1", "replicationcontrollers");
    private static final GroupVersionResource RSS = new GroupVersionResource("apps", "v1", "replicasets");
    private static final GroupVersionResource DEPLOYMENTS = new GroupVersionResource("apps", "v1", "deployments");
    private static final GroupVersionResource STATEFULSETS = new GroupVersionResource("apps", "v1", "statefulsets");

    private final LocalClient client;
    private final Informer rcs;
    private final Informer rss;
    private final Informer deployments;
    private final Informer statefulSets;

    ScaleFinder(LocalClient client, SharedInformers informers) {
        this.client = client;
        this.rcs = informers.informer(RCS);
        this.rss = informers.informer(RSS);
        this.deployments = informers.informer(DEPLOYMENTS);
        this.statefulSets = informers.informer(STATEFULSETS);
    }

    /** The sum of the Pods' controllers' scale; fills {@code into}. */
    int expectedScale(List<ObjectNode> pods, Scale into) {
        for (ObjectNode pod : pods) {
            JsonNode ref = Pods.controllerOf(pod).orElse(null);
            if (ref == null) {
                into.unmanaged.add(ObjectMeta.of(pod).name());
                continue;
            }
            if (into.byController.containsKey(ref.path("uid").asText())) {
                continue;
            }
            String namespace = ObjectMeta.of(pod).namespace();
            Found f = replicationController(ref, namespace)
                    .or(() -> deployment(ref, namespace))
                    .or(() -> replicaSet(ref, namespace))
                    .or(() -> statefulSet(ref, namespace))
                    .or(() -> scaleSubresource(ref, namespace))
                    .orElseThrow(() -> new NoController(
                            "found no controllers for pod " + GoStrings.quote(ObjectMeta.of(pod).name())));
            into.byController.put(f.uid(), f.replicas());
        }
        return into.byController.values().stream().mapToInt(Integer::intValue).sum();
    }

    private record Found(String uid, int replicas) {
    }

    /** {@code verifyGroupKind}: the reference's kind, and its group one of {@code groups}. */
    private static boolean is(JsonNode ref, String kind, String... groups) {
        String apiVersion = ref.path("apiVersion").asText("");
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        return ref.path("kind").asText().equals(kind) && List.of(groups).contains(group);
    }

    private static Optional<ObjectNode> named(Informer informer, JsonNode ref, String namespace) {
        return informer.get(namespace, ref.path("name").asText())
                .filter(o -> ObjectMeta.of(o).uid().equals(ref.path("uid").asText()));
    }

    private static Found found(ObjectNode o) {
        return new Found(ObjectMeta.of(o).uid(), o.path("spec").path("replicas").asInt(1));
    }

    private Optional<Found> replicationController(JsonNode ref, String namespace) {
        return is(ref, "ReplicationController", "") ? named(rcs, ref, namespace).map(ScaleFinder::found)
                : Optional.empty();
    }

    private Optional<Found> deployment(JsonNode ref, String namespace) {
        if (!is(ref, "ReplicaSet", "apps", "extensions")) {
            return Optional.empty();
        }
        return named(rss, ref, namespace).flatMap(Pods::controllerOf)
                .filter(r -> is(r, "Deployment", "apps", "extensions"))
                .flatMap(r -> named(deployments, r, namespace)).map(ScaleFinder::found);
    }

    private Optional<Found> replicaSet(JsonNode ref, String namespace) {
        if (!is(ref, "ReplicaSet", "apps", "extensions")) {
            return Optional.empty();
        }
        return named(rss, ref, namespace)
                .filter(rs -> Pods.controllerOf(rs).map(r -> !r.path("kind").asText().equals("Deployment"))
                        .orElse(true))
                .map(ScaleFinder::found);
    }

    private Optional<Found> statefulSet(JsonNode ref, String namespace) {
        return is(ref, "StatefulSet", "apps") ? named(statefulSets, ref, namespace).map(ScaleFinder::found)
                : Optional.empty();
    }

    /** {@code getScaleController}: the kind's resource from discovery, then its Scale. */
    private Optional<Found> scaleSubresource(JsonNode ref, String namespace) {
        String apiVersion = ref.path("apiVersion").asText("");
        String kind = ref.path("kind").asText("");
        JsonNode resources = client.discovery(apiVersion).map(d -> d.path("resources")).orElse(null);
        String plural = null;
        for (JsonNode r : resources == null ? List.<JsonNode>of() : resources) {
            if (r.path("kind").asText().equals(kind) && !r.path("name").asText().contains("/")) {
                plural = r.path("name").asText();
            }
        }
        if (plural == null) {
            return Optional.empty(); // no mapping: not a controller this finder knows
        }
        boolean scalable = false;
        for (JsonNode r : resources) {
            scalable |= r.path("name").asText().equals(plural + "/scale");
        }
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        String groupResource = group.isEmpty() ? plural : plural + "." + group;
        if (!scalable) {
            throw new NoController(groupResource + " does not implement the scale subresource");
        }
        ObjectNode scale;
        try {
            scale = client.resource(group, version, plural).get(namespace, ref.path("name").asText(), "scale");
        } catch (ApiException e) {
            if (e.reason() == StatusReason.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
        if (!ObjectMeta.of(scale).uid().equals(ref.path("uid").asText())) {
            return Optional.empty();
        }
        return Optional.of(new Found(ObjectMeta.of(scale).uid(), scale.path("spec").path("replicas").asInt(0)));
    }
}
