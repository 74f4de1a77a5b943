package io.kapi.testing.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sample operator's suite ({@link WebAppOperator}), written once and run against two servers: Kapi
 * ({@link WebAppOperatorKapiTest}) and fabric8's mock server in CRUD mode ({@link WebAppOperatorMockTest}).
 * The tests here pass on both: what a mock is good enough for. Each subclass then runs the same
 * scenarios ({@code protected} methods below) where the two differ, asserting what that server does:
 * Kapi what kube-apiserver does, the mock what it does instead, so the mock's class documents, as tests
 * that fail the day it changes, what an operator tested only against it would get wrong.
 *
 * <p>Every test starts its own operator (informers on the client's namespace) and uses app names of its
 * own, so tests do not see each other's objects even on a server shared by the class. Waits poll with
 * generous timeouts; no sleep is used as synchronisation.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
abstract class WebAppOperatorSuite {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final Await EVENTUALLY = Await.atMost(WAIT).every(Duration.ofMillis(10));

    private WebAppOperator operator;

    /** The client of the server under test; its namespace is where the operator works. */
    abstract KubernetesClient client();

    /** The operator under test, not started. */
    WebAppOperator newOperator() {
        return new WebAppOperator(client());
    }

    @BeforeEach
    void startOperator() {
        operator = newOperator().start();
    }

    @AfterEach
    void stopOperator() throws InterruptedException {
        operator.close(); // may be closed already: closing again does nothing
    }

    WebAppOperator operator() {
        return operator;
    }

    // ---- what both servers do alike --------------------------------------------------------------

    @Test
    @DisplayName("an app gets a Deployment: its image, replicas and tier, owned by the app's ConfigMap")
    void createsTheDeployment() {
        ConfigMap app = createApp("shop", Map.of("image", "nginx:1.27", "replicas", "2", "tier", "frontend"));
        Deployment d = awaitDeployment("shop", x -> x.getSpec().getReplicas() == 2);
        assertEquals("nginx:1.27", d.getSpec().getTemplate().getSpec().getContainers().getFirst().getImage());
        assertEquals("frontend", d.getMetadata().getLabels().get(WebAppOperator.TIER_LABEL));
        OwnerReference owner = d.getMetadata().getOwnerReferences().getFirst();
        assertEquals(List.of("ConfigMap", "shop", app.getMetadata().getUid(), true),
                List.of(owner.getKind(), owner.getName(), owner.getUid(), owner.getController()));
    }

    @Test
    @DisplayName("a changed app changes its Deployment")
    void followsTheApp() {
        createApp("blog", Map.of("image", "nginx:1.27", "replicas", "1"));
        awaitDeployment("blog", d -> d.getSpec().getReplicas() == 1);
        editApp("blog", data -> {
            data.put("replicas", "3");
            data.put("image", "nginx:1.28");
        });
        awaitDeployment("blog", d -> d.getSpec().getReplicas() == 3
                && d.getSpec().getTemplate().getSpec().getContainers().getFirst().getImage().equals("nginx:1.28"));
    }

    @Test
    @DisplayName("someone else's change to a Deployment it owns is undone")
    void undoesDrift() {
        createApp("wiki", Map.of("image", "nginx:1.27", "replicas", "2"));
        awaitDeployment("wiki", d -> d.getSpec().getReplicas() == 2);
        Deployment scaled = client().apps().deployments().withName("wiki").edit(d -> {
            d.getSpec().setReplicas(7);
            return d;
        });
        assertEquals(7, scaled.getSpec().getReplicas());
        awaitDeployment("wiki", d -> d.getSpec().getReplicas() == 2);
    }

    @Test
    @DisplayName("a deleted app loses its Deployment; ConfigMaps without the app label are left alone")
    void deletesWithTheApp() {
        client().configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("notes").endMetadata()
                .addToData("image", "nginx").build()).create();
        createApp("forum", Map.of("image", "nginx:1.27"));
        awaitDeployment("forum", Objects::nonNull);
        // the queue is first in, first out: had the operator taken "notes" for an app, it would be there by now
        assertNull(client().apps().deployments().withName("notes").get());
        client().configMaps().withName("forum").delete();
        EVENTUALLY.until("forum's Deployment deleted", () -> client().apps().deployments().withName("forum").get() == null);
    }

    // ---- the scenarios where the servers differ: each subclass asserts what its server does -------

    /**
     * An app drops its {@code tier} (and goes to 4 replicas in the same change): returns the
     * Deployment once it has 4 replicas. With server-side apply, a field its manager no longer applies
     * is removed, so the tier label must be gone.
     */
    Deployment tierDropped(String name) {
        createApp(name, Map.of("image", "nginx:1.27", "replicas", "1", "tier", "backend"));
        awaitDeployment(name, d -> d.getMetadata().getLabels().containsKey(WebAppOperator.TIER_LABEL));
        editApp(name, data -> {
            data.remove("tier");
            data.put("replicas", "4");
        });
        return awaitDeployment(name, d -> d.getSpec().getReplicas() == 4);
    }

    /** The Deployment of a new app, once reconciled: its managedFields say who owns what. */
    Deployment applied(String name) {
        createApp(name, Map.of("image", "nginx:1.27", "replicas", "2"));
        return awaitDeployment(name, d -> d.getSpec().getReplicas() == 2);
    }

    /**
     * Another field manager applies the operator's {@code spec.replicas} without forcing: returns the
     * refusal, or null when the apply was accepted. Kube refuses it with 409 Conflict naming the owner.
     */
    KubernetesClientException otherManagerApplies(String name) {
        applied(name);
        Deployment mine = new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(5).endSpec().build();
        try {
            client().apps().deployments().resource(mine).fieldManager("kubectl-scale").serverSideApply();
            return null;
        } catch (KubernetesClientException e) {
            return e;
        }
    }

    /**
     * An app asking for -1 replicas: returns, once the operator has acted on it, the operator's
     * recorded error (or null) and the Deployment (or null). Kube's validation refuses the Deployment
     * with 422 ({@code spec.replicas: must be greater than or equal to 0}).
     */
    Outcome negativeReplicas(String name) {
        createApp(name, Map.of("image", "nginx:1.27", "replicas", "-1"));
        EVENTUALLY.until("the operator acted on " + name,
                () -> operator.errors().containsKey(name) || client().apps().deployments().withName(name).get() != null);
        return new Outcome(operator.errors().get(name), client().apps().deployments().withName(name).get());
    }

    /**
     * Three apps in tiers frontend, backend and batch: returns the names of the Deployments a set-based
     * selector {@code tier in (frontend,backend)} lists, and those {@code tier notin (frontend)} lists.
     */
    List<List<String>> setBasedSelectors(String prefix) {
        for (String tier : List.of("frontend", "backend", "batch")) {
            createApp(prefix + "-" + tier, Map.of("image", "nginx:1.27", "tier", tier));
        }
        for (String tier : List.of("frontend", "backend", "batch")) {
            awaitDeployment(prefix + "-" + tier, Objects::nonNull);
        }
        List<String> in = names(client().apps().deployments()
                .withLabelIn(WebAppOperator.TIER_LABEL, "frontend", "backend").list().getItems(), prefix);
        List<String> notIn = names(client().apps().deployments()
                .withLabelNotIn(WebAppOperator.TIER_LABEL, "frontend").list().getItems(), prefix);
        return List.of(in, notIn);
    }

    /**
     * The operator writes an app's unchanged Deployment again (as it does on every event): returns the
     * resourceVersion before and after. Kube stores nothing for a write that changes nothing, so the
     * version stays and no watch event is sent.
     */
    List<String> sameWriteAgain(String name) {
        Deployment before = applied(name);
        operator.apply(WebAppOperator.desired(client().configMaps().withName(name).get()));
        Deployment after = client().apps().deployments().withName(name).get();
        return List.of(before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion());
    }

    /**
     * Someone sends a JSON merge patch of an app's Deployment with a new image for its one container:
     * returns the containers' images after. RFC 7386 replaces a list in a merge patch: one container.
     */
    List<String> mergePatchedImage(String name) throws InterruptedException {
        applied(name);
        operator.close(); // this scenario is about the server's patch, not the operator
        Deployment patch = WebAppOperator.desired(client().configMaps().withName(name).get());
        patch.getSpec().getTemplate().getSpec().getContainers().getFirst().setImage("nginx:1.28");
        Deployment after = client().apps().deployments().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        return after.getSpec().getTemplate().getSpec().getContainers().stream().map(c -> c.getImage()).toList();
    }

    /** What the operator recorded for an app and the Deployment that exists for it. */
    record Outcome(String error, Deployment deployment) {
    }

    // ---- helpers ---------------------------------------------------------------------------------

    ConfigMap createApp(String name, Map<String, String> data) {
        return client().configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .addToLabels(WebAppOperator.APP_LABEL, "true").endMetadata().withData(data).build()).create();
    }

    void editApp(String name, java.util.function.Consumer<Map<String, String>> change) {
        client().configMaps().withName(name).edit(c -> {
            Map<String, String> data = new LinkedHashMap<>(c.getData());
            change.accept(data);
            c.setData(data);
            return c;
        });
    }

    Deployment awaitDeployment(String name, Predicate<Deployment> condition) {
        return client().apps().deployments().withName(name)
                .waitUntilCondition(d -> d != null && condition.test(d), WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static List<String> names(List<Deployment> items, String prefix) {
        return items.stream().map(d -> d.getMetadata().getName()).filter(n -> n.startsWith(prefix + "-")).sorted().toList();
    }
}
