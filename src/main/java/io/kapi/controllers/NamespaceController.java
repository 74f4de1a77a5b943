package io.kapi.controllers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import java.time.Duration;
import java.util.Iterator;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;

/**
 * The namespace controller of standalone mode (kube-controller-manager's, simplified): for every
 * terminating namespace it deletes all namespaced objects in it and, once none is left, removes the
 * {@code kubernetes} finalizer and deletes the namespace, so {@code kubectl delete ns} completes.
 * Objects held by their own finalizers or grace periods keep the namespace waiting, as in kube.
 *
 * <p>It polls, which is enough for a few namespaces being deleted at a time; it runs on one virtual
 * thread started by its post-start hook and stops on {@link #close()}.
 */
public final class NamespaceController implements PostStartHook, AutoCloseable {

    private static final String FINALIZER = "kubernetes";

    private final LocalClient client;
    private final Registry registry;
    private final PeriodicWorker worker;

    /**
     * @param client writes as the controller's identity
     * @param registry what it reads: the namespaces and every namespaced resource
     */
    public NamespaceController(LocalClient client, Registry registry, Duration interval) {
        this.client = client;
        this.registry = registry;
        this.worker = new PeriodicWorker("namespace-controller", interval, true, this::syncAll);
    }

    @Override
    public String name() {
        return "start-kapi-namespace-controller";
    }

    @Override
    public void run() {
        worker.start();
    }


    /** One pass over every terminating namespace. */
    public void syncAll() {
        for (ObjectNode ns : registry.namespaces().list("", ListOptions.ALL).items()) {
            if (!ObjectMeta.of(ns).deletionTimestamp().isEmpty()) {
                sync(ObjectMeta.of(ns).name());
            }
        }
    }

    private void sync(String namespace) {
        boolean empty = true;
        for (ResourceStore store : registry.stores()) {
            if (store.resource().namespaced()) {
                empty &= deleteAll(store, namespace);
            }
        }
        if (empty) {
            finalizeNamespace(namespace);
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
            if (e.code() != 404 && e.code() != 409) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        worker.close();
    }
}
