package io.kapi.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import java.time.Duration;
import io.kapi.admission.ObjectLookup;
import io.kapi.client.LocalClient;
import io.kapi.machinery.GroupVersionResource;

/**
 * The service-account and root-CA publisher controllers of standalone mode (kube-controller-manager's,
 * simplified): every active namespace gets the {@code default} ServiceAccount and the
 * {@code kube-root-ca.crt} ConfigMap holding the cluster CA, recreated if deleted. Polls on one
 * virtual thread started by its post-start hook; stops on {@link #close()}.
 */
public final class ServiceAccountController implements PostStartHook, AutoCloseable {

    static final String ROOT_CA = "kube-root-ca.crt";
    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final GroupVersionResource SERVICE_ACCOUNTS = new GroupVersionResource("", "v1", "serviceaccounts");
    private static final GroupVersionResource CONFIG_MAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final String ROOT_CA_DESCRIPTION = "Contains a CA bundle that can be used to verify the "
            + "kube-apiserver when using internal endpoints such as the internal service IP or "
            + "kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

    private final LocalClient client;
    private final ObjectLookup lookup;
    private final String caBundle;
    private final PeriodicWorker worker;

    /**
     * @param client writes as the controller's identity
     * @param lookup reads (as a controller reads its informers' caches)
     * @param caBundle the PEM of the cluster CA, or null when it is not known (no ConfigMap then)
     */
    public ServiceAccountController(LocalClient client, ObjectLookup lookup, String caBundle, Duration interval) {
        this.client = client;
        this.lookup = lookup;
        this.caBundle = caBundle;
        this.worker = new PeriodicWorker("serviceaccount-controller", interval, false, this::syncAll);
    }

    @Override
    public String name() {
        return "start-kapi-serviceaccount-controller";
    }

    @Override
    public void run() {
        syncAll();
        worker.start();
    }


    /** One pass over every active namespace. */
    public void syncAll() {
        for (ObjectNode ns : lookup.list(NAMESPACES, "")) {
            ObjectMeta meta = ObjectMeta.of(ns);
            if (!meta.deletionTimestamp().isEmpty()) {
                continue;
            }
            ensure(SERVICE_ACCOUNTS, meta.name(), object("ServiceAccount", "default"));
            if (caBundle != null) {
                ObjectNode cm = object("ConfigMap", ROOT_CA);
                cm.with("metadata").putObject("annotations").put("kubernetes.io/description", ROOT_CA_DESCRIPTION);
                cm.putObject("data").put("ca.crt", caBundle);
                ensure(CONFIG_MAPS, meta.name(), cm);
            }
        }
    }

    private void ensure(GroupVersionResource resource, String namespace, ObjectNode object) {
        if (lookup.get(resource, namespace, ObjectMeta.of(object).name()).isPresent()) {
            return;
        }
        try {
            client.resource(resource).create(namespace, object);
        } catch (ApiException e) {
            if (e.reason() != StatusReason.ALREADY_EXISTS && e.code() != 403 && e.code() != 404) {
                throw e;
            }
        }
    }

    private static ObjectNode object(String kind, String name) {
        ObjectNode o = Json.object();
        o.put("apiVersion", "v1");
        o.put("kind", kind);
        o.putObject("metadata").put("name", name);
        return o;
    }

    @Override
    public void close() {
        worker.close();
    }
}
