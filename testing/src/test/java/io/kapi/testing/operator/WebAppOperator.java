package io.kapi.testing.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A small operator of the usual shape, for the side-by-side suite: a "web app" is a ConfigMap labelled
 * {@code webapp.kapi.io/app=true} whose data gives {@code image}, {@code replicas} and an optional
 * {@code tier}; for each, the operator keeps a Deployment of the same name, owned by the ConfigMap,
 * written with server-side apply as field manager {@value #MANAGER}. Two informers (the ConfigMaps,
 * and the Deployments it manages, to undo drift) feed one work queue of names, reconciled one at a
 * time. A reconcile that the API server refuses is recorded in {@link #errors()}.
 */
public final class WebAppOperator implements AutoCloseable {

    public static final String APP_LABEL = "webapp.kapi.io/app";
    public static final String OWNER_LABEL = "webapp.kapi.io/owner";
    public static final String TIER_LABEL = "webapp.kapi.io/tier";
    public static final String MANAGER = "webapp-operator";

    private final KubernetesClient client;
    private final boolean withoutApply;
    private final ExecutorService queue = Executors.newSingleThreadExecutor(r -> new Thread(r, "webapp-operator"));
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final Map<String, String> errors = new ConcurrentHashMap<>();
    private SharedIndexInformer<ConfigMap> apps;
    private SharedIndexInformer<Deployment> deployments;

    /** The operator as it should be written: server-side apply creates and updates. */
    public WebAppOperator(KubernetesClient client) {
        this(client, false);
    }

    /**
     * @param withoutApply write without server-side apply (create, or replace the spec): code only
     *        fabric8's mock server needs, which answers an apply with 404 Not Found (new objects) or 415
     *        Unsupported Media Type (existing ones), and appends to lists in a JSON merge patch;
     *        {@link WebAppOperatorMockTest} shows both, and what the stand-in then gets wrong
     */
    public WebAppOperator(KubernetesClient client, boolean withoutApply) {
        this.client = client;
        this.withoutApply = withoutApply;
    }

    /** Starts both informers and returns once they have synced. */
    public WebAppOperator start() {
        // both assigned before either runs: a reconcile reads the apps' cache
        apps = client.configMaps().withLabel(APP_LABEL, "true").runnableInformer(0);
        deployments = client.apps().deployments().withLabel(OWNER_LABEL).runnableInformer(0);
        apps.addEventHandler(handler(c -> c.getMetadata().getName()));
        deployments.addEventHandler(handler(d -> d.getMetadata().getLabels().get(OWNER_LABEL)));
        apps.run();
        deployments.run();
        return this;
    }

    /** The last refusal per app (name → message), cleared by a reconcile that succeeds. */
    public Map<String, String> errors() {
        return errors;
    }

    private <T> ResourceEventHandler<T> handler(java.util.function.Function<T, String> app) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                enqueue(app.apply(obj));
            }

            @Override
            public void onUpdate(T old, T now) {
                enqueue(app.apply(now));
            }

            @Override
            public void onDelete(T obj, boolean unknownFinalState) {
                enqueue(app.apply(obj));
            }
        };
    }

    private void enqueue(String name) {
        if (name != null && pending.add(name)) {
            queue.execute(() -> {
                pending.remove(name);
                reconcile(name);
            });
        }
    }

    private void reconcile(String name) {
        ConfigMap app = apps.getIndexer().getByKey(Cache.namespaceKeyFunc(client.getNamespace(), name));
        try {
            if (app == null) {
                client.apps().deployments().withName(name).delete();
            } else {
                apply(desired(app));
            }
            errors.remove(name);
        } catch (KubernetesClientException e) {
            errors.put(name, e.getCode() + " " + e.getMessage());
        } catch (RuntimeException e) { // e.g. replicas that are no number: the app is wrong, the operator goes on
            errors.put(name, e.toString());
        }
    }

    /** Writes {@code deployment} as this operator writes: server-side apply, or the mock's stand-in. */
    void apply(Deployment deployment) {
        if (!withoutApply) {
            client.apps().deployments().resource(deployment).fieldManager(MANAGER).forceConflicts().serverSideApply();
            return;
        }
        Deployment current = client.apps().deployments().withName(deployment.getMetadata().getName()).get();
        if (current == null) {
            client.apps().deployments().resource(deployment).create();
        } else {
            // a replace, not a JSON merge patch: the mock's merge patch appends to lists (a second container
            // named web each time, each an event that reconciles again)
            Map<String, String> labels = new LinkedHashMap<>(current.getMetadata().getLabels());
            labels.putAll(deployment.getMetadata().getLabels());
            current.getMetadata().setLabels(labels);
            current.getMetadata().setOwnerReferences(deployment.getMetadata().getOwnerReferences());
            current.setSpec(deployment.getSpec());
            client.apps().deployments().resource(current).update();
        }
    }

    /** What the operator wants: only the fields it owns, as server-side apply expects. */
    static Deployment desired(ConfigMap app) {
        String name = app.getMetadata().getName();
        Map<String, String> data = app.getData();
        Map<String, String> labels = new LinkedHashMap<>(Map.of("app", name, OWNER_LABEL, name));
        if (data.containsKey("tier")) {
            labels.put(TIER_LABEL, data.get("tier"));
        }
        return new DeploymentBuilder()
                .withNewMetadata().withName(name).withLabels(labels)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap")
                        .withName(name).withUid(app.getMetadata().getUid()).withController(true).build())
                .endMetadata()
                .withNewSpec().withReplicas(Integer.parseInt(data.getOrDefault("replicas", "1")))
                .withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage(data.get("image")).endContainer().endSpec()
                .endTemplate().endSpec().build();
    }

    @Override
    public void close() throws InterruptedException {
        if (apps != null) {
            apps.close();
        }
        if (deployments != null) {
            deployments.close();
        }
        queue.shutdownNow();
        queue.awaitTermination(10, TimeUnit.SECONDS);
    }
}
