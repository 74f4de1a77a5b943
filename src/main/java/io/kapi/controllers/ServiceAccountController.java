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
 * kube-controller-manager's {@code serviceaccount-controller}: every active namespace has the
 * {@code default} ServiceAccount, made when the namespace appears and again if it is deleted. Driven by
 * the namespaces' and service accounts' shared informers: a new namespace has its account within
 * milliseconds. Writes as {@code system:serviceaccount:kube-system:service-account-controller}.
 */
public final class ServiceAccountController implements PostStartHook, AutoCloseable {

    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final GroupVersionResource SERVICE_ACCOUNTS = new GroupVersionResource("", "v1", "serviceaccounts");
    private static final String DEFAULT = "default";

    private final LocalClient client;
    private final Informer namespaces;
    private final Informer accounts;
    private final QueueController controller;

    /** @param client writes as the controller's identity */
    public ServiceAccountController(LocalClient client, SharedInformers informers) {
        this.client = client;
        this.namespaces = informers.informer(NAMESPACES);
        this.accounts = informers.informer(SERVICE_ACCOUNTS);
        this.controller = new QueueController("serviceaccount-controller", 2, this::reconcile);
        namespaces.addHandler(controller.enqueueing());
        accounts.addHandler(new EventHandler() {
            @Override
            public void onDelete(ObjectNode account) {
                if (ObjectMeta.of(account).name().equals(DEFAULT)) {
                    controller.queue().add(ObjectMeta.of(account).namespace());
                }
            }
        });
    }

    @Override
    public String name() {
        return "start-kapi-serviceaccount-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    /** Makes the {@code default} account of an active namespace (a namespace's key is its name). */
    private void reconcile(String namespace) {
        ObjectNode ns = namespaces.get("", namespace).orElse(null);
        if (ns == null || !ObjectMeta.of(ns).deletionTimestamp().isEmpty()
                || accounts.get(namespace, DEFAULT).isPresent()) {
            return;
        }
        ObjectNode account = Json.object();
        account.put("apiVersion", "v1");
        account.put("kind", "ServiceAccount");
        account.putObject("metadata").put("name", DEFAULT);
        try {
            client.resource(SERVICE_ACCOUNTS).create(namespace, account);
        } catch (ApiException e) {
            // made meanwhile, or the namespace is going or gone: nothing to retry. Any other refusal (RBAC not yet
            // seeing the controller's bootstrap binding just after a start) is retried, as kube's controller does
            if (e.reason() != StatusReason.ALREADY_EXISTS && !e.namespaceTerminating() && e.code() != 404) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        controller.close();
    }
}
