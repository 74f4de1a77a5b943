package io.kapi.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.health.PostStartHook;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.QueueController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import java.time.Duration;
import java.util.Iterator;

/**
 * The namespace controller of standalone mode (kube-controller-manager's, simplified): for every
 * terminating namespace it deletes all namespaced objects in it and, once none is left, removes the
 * {@code kubernetes} finalizer and deletes the namespace, so {@code kubectl delete ns} completes.
 * Objects held by their own finalizers or grace periods keep the namespace waiting, as in kube.
 *
 * <p>Driven by the namespaces' shared informer: a namespace marked for deletion is put on a work queue
 * at once, and looked at again every second while content remains (kube's controller requeues after an
 * estimate of the content's grace), and every five minutes in any case ({@code --namespace-sync-period}).
 */
public final class NamespaceController implements PostStartHook, AutoCloseable {

    private static final String FINALIZER = "kubernetes";

    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    /** How soon a namespace whose content is still going is looked at again. */
    private static final Duration REMAINING = Duration.ofSeconds(1);
    /** kube-controller-manager's {@code --namespace-sync-period}. */
    private static final Duration RESYNC = Duration.ofMinutes(5);

    private final LocalClient client;
    private final Registry registry;
    private final Informer namespaces;
    private final QueueController controller;

    /**
     * @param client writes as the controller's identity
     * @param registry what it reads: every namespaced resource
     */
    public NamespaceController(LocalClient client, Registry registry, SharedInformers informers) {
        this.client = client;
        this.registry = registry;
        this.namespaces = informers.informer(NAMESPACES);
        this.controller = new QueueController("namespace-controller", 2, this::reconcile)
                .resyncEvery(RESYNC, () -> namespaces.list("").stream().map(QueueController::key).toList());
        namespaces.addHandler(EventHandler.onAnyChange(ns -> {
            if (!ObjectMeta.of(ns).deletionTimestamp().isEmpty()) {
                controller.enqueue(ns);
            }
        }));
    }

    @Override
    public String name() {
        return "start-kapi-namespace-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    /** Deletes what is left in a terminating namespace, and the namespace once nothing is. */
    private void reconcile(String namespace) {
        ObjectNode ns = namespaces.get("", namespace).orElse(null);
        if (ns == null || ObjectMeta.of(ns).deletionTimestamp().isEmpty()) {
            return;
        }
        boolean empty = true;
        for (ResourceStore store : registry.stores()) {
            if (store.resource().namespaced()) {
                empty &= deleteAll(store, namespace);
            }
        }
        if (empty) {
            finalizeNamespace(namespace);
        } else {
            controller.queue().addAfter(namespace, REMAINING);
        }
    }

    /** Deletes what is left of one resource in the namespace; true when nothing is left. */
    private boolean deleteAll(ResourceStore store, String namespace) {
        boolean empty = true;
        for (ObjectNode object : store.list(namespace, ListOptions.ALL).items()) {
            empty = false;
            if (ObjectMeta.of(object).deletionTimestamp().isEmpty()) {
                try {
                    client.resource(store.resource().gvr()).delete(namespace, ObjectMeta.of(object).name(),
                            DeleteOptions.DEFAULT);
                } catch (ApiException e) {
                    if (e.code() != 404) {
                        throw e;
                    }
                }
            }
        }
        return empty || store.list(namespace, ListOptions.ALL).items().isEmpty();
    }

    private void finalizeNamespace(String namespace) {
        ResourceClient namespaces = client.resource("", "v1", "namespaces");
        try {
            ObjectNode ns = namespaces.get("", namespace);
            ArrayNode finalizers = ns.with("spec").withArray("finalizers");
            for (Iterator<JsonNode> it = finalizers.elements(); it.hasNext(); ) {
                if (it.next().asText().equals(FINALIZER)) {
                    it.remove();
                }
            }
            if (finalizers.isEmpty()) {
                ns.with("spec").remove("finalizers");
                namespaces.update(ns, "finalize");
                namespaces.delete("", namespace, DeleteOptions.DEFAULT);
            }
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
