package io.kapi.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.user.SystemUsers;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class GarbageCollectorTest {

    private static final String CM = "/api/v1/namespaces/default/configmaps";

    @InMemoryApi
    private ApiHarness api;
    private GarbageCollector collector;

    @BeforeEach
    void setUp() {
        collector = new GarbageCollector(api.assembly().loopback().as(
                SystemUsers.controller("generic-garbage-collector"), "kube-controller-manager"),
                api.assembly().registry(), new io.kapi.informers.SharedInformers(api.assembly().registry()::store));
    }

    @AfterEach
    void tearDown() throws Exception {
        collector.close();
    }

    private String owner(String name) {
        ApiHarness.Reply r = api.post(CM, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"}}");
        assertEquals(201, r.code(), r.text());
        return r.body().at("/metadata/uid").asText();
    }

    private static String ref(String name, String uid, boolean block) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"" + name + "\",\"uid\":\"" + uid
                + "\",\"blockOwnerDeletion\":" + block + "}";
    }

    private void dependent(String name, String... refs) {
        ApiHarness.Reply r = api.post(CM, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name + "\",\"ownerReferences\":[" + String.join(",", refs) + "]}}");
        assertEquals(201, r.code(), r.text());
    }

    private boolean exists(String name) {
        return api.get(CM + "/" + name).code() == 200;
    }

    /**
     * Collector passes until {@code done} holds: each pass works from the watch caches, which follow the
     * writes a moment later (a pass may not see a delete it just made, nor the test's).
     */
    private void collectUntil(String what, BooleanSupplier done) {
        Await.atMost(Duration.ofSeconds(30)).until(what, () -> {
            if (done.getAsBoolean()) {
                return true;
            }
            collector.collect();
            return false;
        });
    }

    /** A few more passes, after which what the collector should leave alone must still be there. */
    private void collectMore() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            collector.collect();
            Thread.sleep(20);
        }
    }

    @Test
    @DisplayName("background: once the owner is gone its dependents are deleted")
    void background() throws InterruptedException {
        String uid = owner("owner");
        dependent("dep", ref("owner", uid, false));
        dependent("unrelated");
        assertEquals(200, api.delete(CM + "/owner").code());
        collectUntil("dep to go", () -> !exists("dep"));
        collectMore();
        assertTrue(exists("unrelated"));
    }

    @Test
    @DisplayName("foreground: the owner stays, Terminating, until its blocking dependents are deleted")
    void foreground() throws InterruptedException {
        String uid = owner("owner");
        dependent("blocking", ref("owner", uid, true));
        dependent("loose", ref("owner", uid, false));
        ApiHarness.Reply r = api.call("DELETE", CM + "/owner", "application/json",
                "{\"propagationPolicy\":\"Foreground\"}");
        assertEquals(200, r.code(), r.text());
        JsonNode held = api.get(CM + "/owner").body();
        assertFalse(held.at("/metadata/deletionTimestamp").isMissingNode());
        assertEquals("foregroundDeletion", held.at("/metadata/finalizers/0").asText());
        collectUntil("the owner to go", () -> !exists("owner"));
        assertFalse(exists("blocking"));
        assertFalse(exists("loose"));
    }

    @Test
    @DisplayName("orphan: the owner goes, its dependents stay without the reference to it")
    void orphan() throws InterruptedException {
        String uid = owner("owner");
        String other = owner("other");
        dependent("dep", ref("owner", uid, true), ref("other", other, false));
        ApiHarness.Reply r = api.delete(CM + "/owner?propagationPolicy=Orphan");
        assertEquals(200, r.code(), r.text());
        collectUntil("the owner to go", () -> !exists("owner"));
        collectMore();
        JsonNode dep = api.get(CM + "/dep").body();
        assertEquals(1, dep.at("/metadata/ownerReferences").size(), dep.toString());
        assertEquals("other", dep.at("/metadata/ownerReferences/0/name").asText());
    }

    @Test
    @DisplayName("a dependent with a remaining owner loses only the reference to the owner that is gone")
    void remainingOwner() throws InterruptedException {
        String first = owner("first");
        String second = owner("second");
        dependent("dep", ref("first", first, false), ref("second", second, false));
        assertEquals(200, api.delete(CM + "/first").code());
        collectUntil("the reference to first to go",
                () -> api.get(CM + "/dep").body().at("/metadata/ownerReferences").size() == 1);
        collectMore();
        assertEquals(200, api.get(CM + "/dep").code());
        JsonNode dep = api.get(CM + "/dep").body();
        assertEquals(1, dep.at("/metadata/ownerReferences").size(), dep.toString());
        assertEquals(second, dep.at("/metadata/ownerReferences/0/uid").asText());
    }

    @Test
    @DisplayName("an owner recreated under the same name is another owner (matched by uid); unserved kinds count as present")
    void recreatedAndUnknownOwners() throws InterruptedException {
        String uid = owner("owner");
        dependent("dep", ref("owner", uid, false));
        dependent("foreign", "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"name\":\"w\",\"uid\":\"0000\"}");
        assertEquals(200, api.delete(CM + "/owner").code());
        owner("owner");
        collectUntil("dep to go", () -> !exists("dep"));
        collectMore();
        assertTrue(exists("foreign"));
    }
}
