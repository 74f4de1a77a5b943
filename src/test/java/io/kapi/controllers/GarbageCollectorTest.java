package io.kapi.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.authn.SystemUsers;
import io.kapi.harness.ApiHarness;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class GarbageCollectorTest {

    private static final String CM = "/api/v1/namespaces/default/configmaps";

    private ApiHarness api;
    private GarbageCollector collector;

    @BeforeEach
    void setUp() {
        api = new ApiHarness();
        collector = new GarbageCollector(api.assembly().loopback().as(
                SystemUsers.controller("generic-garbage-collector"), "kube-controller-manager"),
                api.assembly().registry(), Duration.ofSeconds(1));
    }

    @AfterEach
    void tearDown() throws Exception {
        collector.close();
        api.close();
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

    /** Passes until nothing changes: each pass works from the caches as the previous one left them. */
    private void collectUntilSettled() {
        for (int i = 0; i < 10; i++) {
            collector.collect();
        }
    }

    @Test
    @DisplayName("background: once the owner is gone its dependents are deleted")
    void background() {
        String uid = owner("owner");
        dependent("dep", ref("owner", uid, false));
        dependent("unrelated");
        assertEquals(200, api.delete(CM + "/owner").code());
        collectUntilSettled();
        assertFalse(exists("dep"));
        assertTrue(exists("unrelated"));
    }

    @Test
    @DisplayName("foreground: the owner stays, Terminating, until its blocking dependents are deleted")
    void foreground() {
        String uid = owner("owner");
        dependent("blocking", ref("owner", uid, true));
        dependent("loose", ref("owner", uid, false));
        ApiHarness.Reply r = api.call("DELETE", CM + "/owner", "application/json",
                "{\"propagationPolicy\":\"Foreground\"}");
        assertEquals(200, r.code(), r.text());
        JsonNode held = api.get(CM + "/owner").body();
        assertFalse(held.at("/metadata/deletionTimestamp").isMissingNode());
        assertEquals("foregroundDeletion", held.at("/metadata/finalizers/0").asText());
        collectUntilSettled();
        assertFalse(exists("blocking"));
        assertFalse(exists("loose"));
        assertFalse(exists("owner"));
    }

    @Test
    @DisplayName("orphan: the owner goes, its dependents stay without the reference to it")
    void orphan() {
        String uid = owner("owner");
        String other = owner("other");
        dependent("dep", ref("owner", uid, true), ref("other", other, false));
        ApiHarness.Reply r = api.delete(CM + "/owner?propagationPolicy=Orphan");
        assertEquals(200, r.code(), r.text());
        collectUntilSettled();
        assertFalse(exists("owner"));
        JsonNode dep = api.get(CM + "/dep").body();
        assertEquals(1, dep.at("/metadata/ownerReferences").size(), dep.toString());
        assertEquals("other", dep.at("/metadata/ownerReferences/0/name").asText());
    }

    @Test
    @DisplayName("a dependent with a remaining owner loses only the reference to the owner that is gone")
    void remainingOwner() {
        String first = owner("first");
        String second = owner("second");
        dependent("dep", ref("first", first, false), ref("second", second, false));
        assertEquals(200, api.delete(CM + "/first").code());
        collectUntilSettled();
        JsonNode dep = api.get(CM + "/dep").body();
        assertEquals(200, api.get(CM + "/dep").code());
        assertEquals(1, dep.at("/metadata/ownerReferences").size(), dep.toString());
        assertEquals(second, dep.at("/metadata/ownerReferences/0/uid").asText());
    }

    @Test
    @DisplayName("an owner recreated under the same name is another owner (matched by uid); unserved kinds count as present")
    void recreatedAndUnknownOwners() {
        String uid = owner("owner");
        dependent("dep", ref("owner", uid, false));
        dependent("foreign", "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"name\":\"w\",\"uid\":\"0000\"}");
        assertEquals(200, api.delete(CM + "/owner").code());
        owner("owner");
        collectUntilSettled();
        assertFalse(exists("dep"));
        assertTrue(exists("foreign"));
    }
}
