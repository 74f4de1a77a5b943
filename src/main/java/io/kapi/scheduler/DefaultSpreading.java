package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.informers.Informer;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.machinery.labels.Requirement;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's {@code helper.DefaultSelector}, which the system default spreading constraints select with: the
 * requirements of every Service in the Pod's namespace whose selector matches it, and of the
 * ReplicaSet, StatefulSet or ReplicationController controlling it; null when there is none.
 */
final class DefaultSpreading {

    private final Informer services;
    private final Informer replicaSets;
    private final Informer statefulSets;
    private final Informer controllers;

    DefaultSpreading(SharedInformers informers) {
        services = informers.informer(new GroupVersionResource("", "v1", "services"));
        replicaSets = informers.informer(new GroupVersionResource("apps", "v1", "replicasets"));
        statefulSets = informers.informer(new GroupVersionResource("apps", "v1", "statefulsets"));
        controllers = informers.informer(new GroupVersionResource("", "v1", "replicationcontrollers"));
    }

    LabelSelector selector(PodInfo pod) {
        List<Requirement> requirements = new ArrayList<>();
        for (ObjectNode s : services.list(pod.namespace())) {
            JsonNode selector = s.path("spec").path("selector");
            if (selector.isObject() && !selector.isEmpty()) {
                LabelSelector set = LabelSelector.fromSet(selector);
                if (set.matches(pod.labels())) {
                    requirements.addAll(set.requirements());
                }
            }
        }
        for (JsonNode owner : pod.pod().path("metadata").path("ownerReferences")) {
            if (!owner.path("controller").asBoolean(false)) {
                continue;
            }
            String name = owner.path("name").asText();
            switch (owner.path("kind").asText()) {
                case "ReplicaSet" -> replicaSets.get(pod.namespace(), name)
                        .ifPresent(o -> requirements.addAll(parse(o.path("spec").path("selector"))));
                case "StatefulSet" -> statefulSets.get(pod.namespace(), name)
                        .ifPresent(o -> requirements.addAll(parse(o.path("spec").path("selector"))));
                case "ReplicationController" -> controllers.get(pod.namespace(), name)
                        .ifPresent(o -> requirements.addAll(LabelSelector.fromSet(o.path("spec").path("selector"))
                                .requirements()));
                default -> {
                }
            }
        }
        return requirements.isEmpty() ? null : new LabelSelector(requirements);
    }

    private static List<Requirement> parse(JsonNode selector) {
        try {
            return LabelSelector.fromObject(selector).requirements();
        } catch (IllegalArgumentException e) {
            return List.of();
        }
    }
}
