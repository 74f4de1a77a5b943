package io.kapi.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
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

/**
 * kube-controller-manager's {@code root-ca-cert-publisher}: every active namespace has the
 * {@code kube-root-ca.crt} ConfigMap holding the cluster CA (what Pods' projected service-account
 * volumes mount to verify the API server), made when the namespace appears, put back when it is deleted
 * or changed. Driven by the namespaces' and ConfigMaps' shared informers: a new namespace has it within
 * milliseconds. Writes as {@code system:serviceaccount:kube-system:root-ca-cert-publisher}, which kube's
 * bootstrap policy allows to create and update ConfigMaps.
 */
public final class RootCaPublisher implements PostStartHook, AutoCloseable {

    static final String ROOT_CA = "kube-root-ca.crt";
    private static final GroupVersionResource CONFIG_MAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final String DESCRIPTION_ANNOTATION = "kubernetes.io/description";
    private static final String DESCRIPTION = "Contains a CA bundle that can be used to verify the "
            + "kube-apiserver when using internal endpoints such as the internal service IP or "
            + "kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

    private final LocalClient client;
    private final String caBundle;
    private final Informer namespaces;
    private final Informer configMaps;
    private final QueueController controller;

    /**
     * @param client writes as the controller's identity
     * @param caBundle the PEM of the cluster CA
     */
    public RootCaPublisher(LocalClient client, String caBundle, SharedInformers informers) {
        this.client = client;
        this.caBundle = caBundle;
        this.namespaces = informers.informer(ServiceAccountController.NAMESPACES);
        this.configMaps = informers.informer(CONFIG_MAPS);
        this.controller = new QueueController("root-ca-cert-publisher", 2, this::reconcile);
        namespaces.addHandler(controller.enqueueing());
        configMaps.addHandler(new EventHandler() {
            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                ours(after);
            }

            @Override
            public void onDelete(ObjectNode configMap) {
                ours(configMap);
            }

            private void ours(ObjectNode configMap) {
                if (ObjectMeta.of(configMap).name().equals(ROOT_CA)) {
                    controller.queue().add(ObjectMeta.of(configMap).namespace());
                }
            }
        });
    }

    @Override
    public String name() {
        return "start-kapi-root-ca-cert-publisher";
    }

    @Override
    public void run() {
        controller.start();
    }

    /** Makes or mends the ConfigMap of an active namespace (a namespace's key is its name). */
    private void reconcile(String namespace) {
        ObjectNode ns = namespaces.get("", namespace).orElse(null);
        if (ns == null || !ObjectMeta.of(ns).deletionTimestamp().isEmpty()) {
            return;
        }
        ObjectNode current = configMaps.get(namespace, ROOT_CA).orElse(null);
        try {
            if (current == null) {
                ObjectNode configMap = Json.object();
                configMap.put("apiVersion", "v1");
                configMap.put("kind", "ConfigMap");
                configMap.putObject("metadata").put("name", ROOT_CA).putObject("annotations")
                        .put(DESCRIPTION_ANNOTATION, DESCRIPTION);
                configMap.putObject("data").put("ca.crt", caBundle);
                client.resource(CONFIG_MAPS).create(namespace, configMap);
            } else if (!published(current)) {
                ObjectNode mended = current.deepCopy();
                mended.putObject("data").put("ca.crt", caBundle);
                mended.with("metadata").with("annotations").put(DESCRIPTION_ANNOTATION, DESCRIPTION);
                client.resource(CONFIG_MAPS).update(mended, "");
            }
        } catch (ApiException e) {
            // the namespace is going or gone: nothing to retry (kube's publisher gives up on those too); any other
            // refusal (RBAC not yet seeing the publisher's bootstrap binding just after a start) is retried
            if (e.reason() != StatusReason.ALREADY_EXISTS && !e.namespaceTerminating() && e.code() != 404) {
                throw e;
            }
        }
    }

    /** Whether the ConfigMap holds exactly the CA and its description, as the publisher leaves it. */
    private boolean published(ObjectNode configMap) {
        ObjectNode expected = Json.object();
        expected.put("ca.crt", caBundle);
        return configMap.path("data").equals(expected)
                && !configMap.path("metadata").path("annotations").path(DESCRIPTION_ANNOTATION).asText("").isEmpty();
    }

    @Override
    public void close() {
        controller.close();
    }
}
