package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.assembly.ApiConfig;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.features.FeatureGates;
import io.kapi.machinery.resource.ApiEnablement;
import io.kapi.storage.KeyValue;
import io.kapi.storage.Storage;
import io.kapi.user.UserInfo;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * kube 1.34's {@code ignoreStoreReadErrorWithClusterBreakingPotential}: an object whose stored value cannot be
 * read is removed only behind the {@code AllowUnsafeMalformedObjectDeletion} gate, by a user who may
 * {@code unsafe-delete-ignore-read-errors} it, with none of the options that need the object.
 */
class CorruptObjectDeletionTest {

    private static final String SECRET = "/api/v1/namespaces/default/secrets/s";
    private static final String KEY = "/registry/secrets/default/s";
    private static final UserInfo DELETER = new UserInfo("deleter", "", List.of("system:authenticated"));

    private static ApiHarness server(boolean gate) {
        FeatureGates gates = FeatureGates.parse(List.of("AllowUnsafeMalformedObjectDeletion=" + gate));
        ApiHarness api = new ApiHarness(ApiConfig.builder().features(new ApiConfig.Features(gates, ApiEnablement.DEFAULT))
                .authorizationModes(List.of("RBAC")).admission(ApiConfig.Admission.DEFAULT.bare()).build());
        // the deleter may get and delete secrets, not unsafe-delete-ignore-read-errors them
        assertEquals(201, api.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", """
                {"metadata":{"name":"deleter"},"rules":[{"apiGroups":[""],"resources":["secrets"],
                 "verbs":["get","list","delete"]}]}""").code());
        assertEquals(201, api.post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", """
                {"metadata":{"name":"deleter"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                 "name":"deleter"},"subjects":[{"kind":"User","name":"deleter"}]}""").code());
        // RBAC reads bindings from its informers: the deleter may list secrets once they have the binding
        for (int i = 0; i < 400 && api.call(DELETER, "GET", "/api/v1/namespaces/default/secrets", null, "").code() != 200;
                i++) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
        }
        return api;
    }

    private static void corrupt(ApiHarness api) {
        corrupt(api, "s");
        ApiHarness.Reply get = api.get(SECRET);
        assertEquals(500, get.code(), get.text());
    }

    /** Secret {@code name} with a value no provider opens (an aescbc key the server does not have). */
    private static void corrupt(ApiHarness api, String name) {
        assertEquals(201, api.post("/api/v1/namespaces/default/secrets", "{\"metadata\":{\"name\":\"" + name
                + "\",\"finalizers\":[\"example.com/keep\"]},\"data\":{\"k\":\"dg==\"}}").code());
        Storage storage = api.assembly().storage();
        String key = "/registry/secrets/default/" + name;
        KeyValue kv = storage.get(key).orElseThrow();
        storage.update(key, "k8s:enc:aescbc:v1:gone:\u0001\u0002".getBytes(StandardCharsets.ISO_8859_1), kv.modRevision());
    }

    private static final String IDENTITY_FAILS = "identity transformer tried to read encrypted data";

    private static String corruptObject(String name) {
        return "StorageError: corrupt object, Code: 7, Key: /registry/secrets/default/" + name
                + ", ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: "
                + IDENTITY_FAILS;
    }

    @Test
    @DisplayName("without the gate, kube's store words: GET the transformer's error, LIST 'unable to transform key' of the first")
    void wordsWithoutGate() {
        try (ApiHarness api = server(false)) {
            corrupt(api, "s");
            corrupt(api, "t");
            ApiHarness.Reply get = api.get(SECRET);
            assertEquals(500, get.code(), get.text());
            assertEquals("InternalError", get.body().path("reason").asText());
            assertEquals("Internal error occurred: " + IDENTITY_FAILS, get.body().path("message").asText());
            String list = "Internal error occurred: unable to transform key \"/registry/secrets/default/s\": "
                    + IDENTITY_FAILS;
            for (String query : List.of("", "?limit=10", "?resourceVersion=0")) {
                ApiHarness.Reply reply = api.get("/api/v1/namespaces/default/secrets" + query);
                assertEquals(500, reply.code(), query + " " + reply.text());
                assertEquals(list, reply.body().path("message").asText(), query);
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @DisplayName("with the gate, GET names the corrupt object and LIST gathers every one into a StoreReadError")
    void wordsWithGate() {
        try (ApiHarness api = server(true)) {
            corrupt(api, "s");
            corrupt(api, "t");
            assertEquals(201, api.post("/api/v1/namespaces/default/secrets", "{\"metadata\":{\"name\":\"u\"}}").code());
            ApiHarness.Reply get = api.get(SECRET);
            assertEquals(500, get.code(), get.text());
            assertEquals("Internal error occurred: " + corruptObject("s"), get.body().path("message").asText());
            for (String query : List.of("", "?limit=10")) {
                ApiHarness.Reply reply = api.get("/api/v1/namespaces/default/secrets" + query);
                assertEquals(500, reply.code(), query + " " + reply.text());
                assertEquals("StoreReadError", reply.body().path("reason").asText(), reply.text());
                assertEquals("failed to read one or more secrets from the storage", reply.body().path("message").asText());
                assertEquals("list", reply.body().at("/details/name").asText());
                assertEquals("secrets", reply.body().at("/details/kind").asText());
                var causes = reply.body().at("/details/causes");
                assertEquals(2, causes.size(), reply.text());
                for (int i = 0; i < 2; i++) {
                    String name = i == 0 ? "s" : "t";
                    assertEquals("UnexpectedServerResponse", causes.get(i).path("reason").asText());
                    assertEquals("/registry/secrets/default/" + name, causes.get(i).path("field").asText());
                    assertEquals(corruptObject(name), causes.get(i).path("message").asText());
                }
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ApiHarness.Reply unsafeDelete(ApiHarness api, UserInfo user, String options) {
        return api.call(user, "DELETE", SECRET, "application/json",
                "{\"ignoreStoreReadErrorWithClusterBreakingPotential\":true" + options + "}");
    }

    @Test
    @DisplayName("with the gate, the admin removes the corrupt object (finalizers and all); another user is 403")
    void removed() {
        try (ApiHarness api = server(true)) {
            corrupt(api);
            assertEquals(500, api.delete(SECRET).code(), "an ordinary delete cannot read it");
            ApiHarness.Reply refused = unsafeDelete(api, DELETER, "");
            assertEquals(403, refused.code(), refused.text());
            assertEquals("secrets \"s\" is forbidden: not permitted to do \"unsafe-delete-ignore-read-errors\"",
                    refused.body().path("message").asText());
            ApiHarness.Reply done = unsafeDelete(api, ApiHarness.ADMIN, "");
            assertEquals(200, done.code(), done.text());
            assertEquals("Success", done.body().path("status").asText());
            assertEquals("s", done.body().at("/details/name").asText());
            assertFalse(api.assembly().storage().get(KEY).isPresent(), "gone from storage");
            assertEquals(404, api.get(SECRET).code());
            assertEquals(0, api.get("/api/v1/namespaces/default/secrets").body().path("items").size());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @DisplayName("options that need the object are refused with it as kube's ValidateDeleteOptions refuses them")
    void invalidOptions() {
        try (ApiHarness api = server(true)) {
            ApiHarness.Reply reply = unsafeDelete(api, ApiHarness.ADMIN,
                    ",\"dryRun\":[\"All\"],\"propagationPolicy\":\"Orphan\",\"gracePeriodSeconds\":5,"
                            + "\"preconditions\":{\"uid\":\"x\"}");
            assertEquals(422, reply.code(), reply.text());
            assertEquals("DeleteOptions.meta.k8s.io \"\" is invalid: [ignoreStoreReadErrorWithClusterBreakingPotential: "
                    + "Invalid value: true: cannot be set together with .dryRun, "
                    + "ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with "
                    + ".propagationPolicy, ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot "
                    + "be set with a non-zero value of .gracePeriodSeconds, "
                    + "ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together "
                    + "with .preconditions]", reply.body().path("message").asText());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @DisplayName("without the gate the option is dropped: the corrupt object stays; a readable object is deleted as usual")
    void gateOff() {
        try (ApiHarness api = server(false)) {
            corrupt(api);
            assertEquals(500, unsafeDelete(api, ApiHarness.ADMIN, "").code());
            assertTrue(api.assembly().storage().get(KEY).isPresent());
            assertEquals(201, api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"c\"}}").code());
            assertEquals(200, api.call(ApiHarness.ADMIN, "DELETE", "/api/v1/namespaces/default/configmaps/c",
                    "application/json", "{\"ignoreStoreReadErrorWithClusterBreakingPotential\":true}").code());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
