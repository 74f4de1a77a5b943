package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.admission.plugin.NamespaceLifecycle;
import io.kapi.apis.groups.BuiltinBehaviours;
import io.kapi.harness.StoreCalls;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.Storage;
import io.kapi.storage.backends.Storages;
import io.kapi.storage.cache.CacheOptions;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ResourceStoreTest {

    private static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
    private static final ApiResource NAMESPACES = new ApiResource("", "v1", "namespaces", "namespace", "Namespace",
            false, ALL_VERBS, List.of("ns"), List.of(), List.of());
    private static final ApiResource CONFIGMAPS = new ApiResource("", "v1", "configmaps", "configmap", "ConfigMap",
            true, ALL_VERBS, List.of("cm"), List.of(), List.of());
    private static final ApiResource DEPLOYMENTS = new ApiResource("apps", "v1", "deployments", "deployment",
            "Deployment", true, ALL_VERBS, List.of("deploy"), List.of("all"), List.of());

    private Storage storage;
    private Registry registry;
    private ResourceStore configmaps;

    @BeforeEach
    void setUp() {
        storage = Storages.memory();
        registry = new Registry(List.of(NAMESPACES, CONFIGMAPS, DEPLOYMENTS), storage, new BuiltinBehaviours(),
                StoreServices.minimal((resource, object) -> List.of(), Clock.systemUTC()),
                lookup -> new AdmissionChain(List.of(new NamespaceLifecycle(lookup))), ReadPath.WATCH_CACHE);
        StoreCalls.systemNamespaces(registry);
        configmaps = registry.store(CONFIGMAPS).orElseThrow();
    }

    @AfterEach
    void tearDown() {
        storage.close();
    }

    @Test
    @DisplayName("create fills uid, creationTimestamp and a resourceVersion that get returns")
    void createFillsMetadata() {
        ObjectNode created = StoreCalls.create(configmaps, "default", configMap("c1"), false);
        ObjectMeta meta = ObjectMeta.of(created);
        assertFalse(meta.uid().isEmpty());
        assertTrue(meta.creationTimestamp().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
        assertEquals(meta.resourceVersion(), ObjectMeta.of(configmaps.get("default", "c1")).resourceVersion());
        assertEquals(0, meta.generation(), "configmaps do not track generation");
    }

    @Test
    @DisplayName("create of an existing name is AlreadyExists, worded as kube-apiserver")
    void createTwice() {
        StoreCalls.create(configmaps, "default", configMap("c1"), false);
        ApiException e = assertThrows(ApiException.class, () -> StoreCalls.create(configmaps, "default", configMap("c1"), false));
        assertEquals(StatusReason.ALREADY_EXISTS, e.reason());
        assertEquals("configmaps \"c1\" already exists", e.getMessage());
    }

    @Test
    @DisplayName("create in a namespace that does not exist is NotFound for the namespace")
    void createInMissingNamespace() {
        ApiException e = assertThrows(ApiException.class, () -> StoreCalls.create(configmaps, "nope", configMap("c1"), false));
        assertEquals(404, e.code());
        assertEquals("namespaces \"nope\" not found", e.getMessage());
    }

    @Test
    @DisplayName("a body namespace different from the path namespace is a bad request")
    void namespaceMismatch() {
        ObjectNode cm = configMap("c1");
        ObjectMeta.of(cm).namespace("kube-system");
        ApiException e = assertThrows(ApiException.class, () -> StoreCalls.create(configmaps, "default", cm, false));
        assertEquals(400, e.code());
    }

    @Test
    @DisplayName("generateName produces distinct names with the prefix")
    void generateName() {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("generateName", "gen-");
            names.add(ObjectMeta.of(StoreCalls.create(configmaps, "default", cm, false)).name());
        }
        assertEquals(50, names.size());
        assertTrue(names.stream().allMatch(n -> n.matches("gen-[a-z0-9]{5}")));
    }

    @Test
    @DisplayName("update with a stale resourceVersion is a Conflict worded as kube-apiserver")
    void staleUpdate() {
        ObjectNode created = StoreCalls.create(configmaps, "default", configMap("c1"), false);
        String stale = ObjectMeta.of(created).resourceVersion();
        ObjectNode changed = configMap("c1");
        changed.with("data").put("changed", "yes");
        StoreCalls.update(configmaps, "default", "c1", changed, false);
        ObjectNode again = configMap("c1");
        ObjectMeta.of(again).resourceVersion(stale);
        ApiException e = assertThrows(ApiException.class, () -> StoreCalls.update(configmaps, "default", "c1", again, false));
        assertEquals(409, e.code());
        assertEquals("Operation cannot be fulfilled on configmaps \"c1\": the object has been modified; please apply "
                + "your changes to the latest version and try again", e.getMessage());
    }

    @Test
    @DisplayName("update keeps uid and creationTimestamp and raises the resourceVersion")
    void updateKeepsSystemFields() {
        ObjectNode created = StoreCalls.create(configmaps, "default", configMap("c1"), false);
        ObjectNode changed = configMap("c1");
        changed.putObject("data").put("k", "v2");
        ObjectNode updated = StoreCalls.update(configmaps, "default", "c1", changed, false).object();
        assertEquals(ObjectMeta.of(created).uid(), ObjectMeta.of(updated).uid());
        assertEquals(ObjectMeta.of(created).creationTimestamp(), ObjectMeta.of(updated).creationTimestamp());
        assertTrue(Long.parseLong(ObjectMeta.of(updated).resourceVersion())
                > Long.parseLong(ObjectMeta.of(created).resourceVersion()));
    }

    @Test
    @DisplayName("generation starts at 1 and grows only when the spec changes")
    void generation() {
        ResourceStore deployments = registry.store(DEPLOYMENTS).orElseThrow();
        ObjectNode d = deployment("d1");
        assertEquals(1, ObjectMeta.of(StoreCalls.create(deployments, "default", d, false)).generation());
        ObjectNode labelled = deployments.get("default", "d1");
        labelled.with("metadata").with("labels").put("a", "b");
        assertEquals(1, ObjectMeta.of(StoreCalls.update(deployments, "default", "d1", labelled, false).object()).generation());
        ObjectNode scaled = deployments.get("default", "d1");
        scaled.with("spec").put("replicas", 3);
        assertEquals(2, ObjectMeta.of(StoreCalls.update(deployments, "default", "d1", scaled, false).object()).generation());
    }

    @Test
    @DisplayName("dry-run create validates and answers but stores nothing")
    void dryRun() {
        StoreCalls.create(configmaps, "default", configMap("c1"), true);
        assertThrows(ApiException.class, () -> configmaps.get("default", "c1"));
    }

    @Test
    @DisplayName("delete removes the object; a second delete is NotFound")
    void delete() {
        StoreCalls.create(configmaps, "default", configMap("c1"), false);
        assertTrue(StoreCalls.delete(configmaps, "default", "c1", DeleteOptions.DEFAULT).deleted());
        ApiException e = assertThrows(ApiException.class,
                () -> StoreCalls.delete(configmaps, "default", "c1", DeleteOptions.DEFAULT));
        assertEquals("configmaps \"c1\" not found", e.getMessage());
    }

    @Test
    @DisplayName("an object with finalizers is only marked deleting until they are removed")
    void finalizers() {
        ObjectNode cm = configMap("c1");
        cm.with("metadata").putArray("finalizers").add("example.com/hold");
        StoreCalls.create(configmaps, "default", cm, false);
        DeleteResult result = StoreCalls.delete(configmaps, "default", "c1", DeleteOptions.DEFAULT);
        assertFalse(result.deleted());
        ObjectNode held = configmaps.get("default", "c1");
        assertFalse(ObjectMeta.of(held).deletionTimestamp().isEmpty());
        held.with("metadata").putArray("finalizers");
        StoreCalls.update(configmaps, "default", "c1", held, false);
        assertThrows(ApiException.class, () -> configmaps.get("default", "c1"));
    }

    @Test
    @DisplayName("a uid precondition that does not match is a Conflict")
    void uidPrecondition() {
        StoreCalls.create(configmaps, "default", configMap("c1"), false);
        ApiException e = assertThrows(ApiException.class,
                () -> StoreCalls.delete(configmaps, "default", "c1", new DeleteOptions("other", null, false, null, null)));
        assertEquals(409, e.code());
    }

    @Test
    @DisplayName("paging with limit and continue returns every object exactly once at one revision")
    void paging() {
        for (int i = 0; i < 25; i++) {
            StoreCalls.create(configmaps, "default", configMap("c%02d".formatted(i)), false);
        }
        List<String> seen = new java.util.ArrayList<>();
        String token = null;
        String revision = null;
        do {
            ListResult page = configmaps.list("default", new ListOptions(10, token, LabelSelector.EVERYTHING, FieldSelector.EVERYTHING));
            page.items().forEach(o -> seen.add(ObjectMeta.of(o).name()));
            if (revision == null) {
                revision = page.resourceVersion();
                assertEquals(15L, page.remainingItemCount());
                StoreCalls.create(configmaps, "default", configMap("zz-late"), false);
            }
            assertEquals(revision, page.resourceVersion());
            token = page.continueToken();
        } while (token != null);
        assertEquals(25, seen.size());
        assertEquals(25, new HashSet<>(seen).size());
    }

    @Test
    @DisplayName("a malformed continue token is a bad request")
    void badContinue() {
        ApiException e = assertThrows(ApiException.class,
                () -> configmaps.list("default", new ListOptions(10, "garbage!", LabelSelector.EVERYTHING, FieldSelector.EVERYTHING)));
        assertEquals(400, e.code());
    }

    @Test
    @DisplayName("list across namespaces and with a label selector")
    void listAcrossNamespaces() {
        ObjectNode a = configMap("a");
        a.with("metadata").with("labels").put("app", "x");
        StoreCalls.create(configmaps, "default", a, false);
        StoreCalls.create(configmaps, "kube-system", configMap("b"), false);
        assertEquals(2, configmaps.list("", ListOptions.ALL).items().size());
        ListResult labelled = configmaps.list("", new ListOptions(0, null, LabelSelector.parse("app=x"), FieldSelector.EVERYTHING));
        assertEquals(1, labelled.items().size());
        assertNull(labelled.continueToken());
    }

    @Test
    @DisplayName("system namespaces are Active with the kubernetes finalizer and name label")
    void systemNamespaces() {
        ObjectNode ns = registry.namespaces().get("", "kube-system");
        assertEquals("Active", ns.path("status").path("phase").asText());
        assertEquals("kubernetes", ns.path("spec").path("finalizers").get(0).asText());
        assertEquals("kube-system", ns.path("metadata").path("labels").path("kubernetes.io/metadata.name").asText());
        StoreCalls.systemNamespaces(registry);
        assertEquals(4, registry.namespaces().list("", ListOptions.ALL).items().size());
    }

    @Test
    @DisplayName("a status update changes only the status")
    void statusUpdate() {
        ResourceStore deployments = registry.store(DEPLOYMENTS).orElseThrow();
        ObjectNode d = deployment("d1");
        StoreCalls.create(deployments, "default", d, false);
        ObjectNode body = Json.object();
        body.putObject("metadata").put("name", "d1");
        body.putObject("spec").put("replicas", 9);
        body.putObject("status").put("replicas", 1);
        ObjectNode updated = StoreCalls.updateStatus(deployments, "default", "d1", body, false);
        assertEquals(1, updated.path("spec").path("replicas").asInt());
        assertEquals(1, updated.path("status").path("replicas").asInt());
        assertEquals(1, ObjectMeta.of(updated).generation());
        assertNotEquals("", ObjectMeta.of(updated).uid());
    }

    /** A Deployment valid by kube's rules (selector matching the template labels, one container). */
    private static ObjectNode deployment(String name) {
        ObjectNode d = Json.object();
        d.putObject("metadata").put("name", name);
        ObjectNode spec = d.putObject("spec").put("replicas", 1);
        spec.putObject("selector").putObject("matchLabels").put("app", name);
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", name);
        template.putObject("spec").putArray("containers").addObject().put("name", "c").put("image", "nginx");
        return d;
    }

    private static ObjectNode configMap(String name) {
        ObjectNode cm = Json.object();
        cm.put("apiVersion", "v1");
        cm.put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", name);
        cm.putObject("data").put("k", "v");
        return cm;
    }
}
