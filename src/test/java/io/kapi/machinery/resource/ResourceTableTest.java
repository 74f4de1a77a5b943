package io.kapi.machinery.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.schema.Schemas;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ResourceTableTest {

    private final ResourceTable table = ResourceTable.builtin();

    static JsonNode reference() throws IOException {
        try (InputStream in = ResourceTableTest.class.getResourceAsStream("/reference/discovery-v1.32.13.json")) {
            return Json.MAPPER.readTree(in);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    @DisplayName("every resource and subresource of a real 1.32 kube-apiserver is in the table, alike")
    void matchesReferenceDiscovery() throws IOException {
        for (Map.Entry<String, JsonNode> list : reference().path("resources").properties()) {
            GroupVersion gv = GroupVersion.parse(list.getKey());
            for (JsonNode r : list.getValue().path("resources")) {
                String[] name = r.path("name").asText().split("/");
                ApiResource row = table.find(gv.group(), gv.version(), name[0]).orElseThrow(
                        () -> new AssertionError("missing " + gv + " " + name[0]));
                String what = gv + " " + r.path("name").asText();
                assertEquals(r.path("namespaced").asBoolean(), row.namespaced(), what);
                if (name.length == 1) {
                    assertEquals(r.path("singularName").asText(), row.singularName(), what);
                    assertEquals(r.path("kind").asText(), row.kind(), what);
                    assertEquals(strings(r.path("verbs")), row.verbs(), what);
                    assertEquals(strings(r.path("shortNames")), row.shortNames(), what);
                    assertEquals(strings(r.path("categories")), row.categories(), what);
                } else {
                    ApiResource.Subresource sub = row.subresource(name[1]);
                    assertTrue(sub != null, what);
                    assertEquals(r.path("kind").asText(), sub.kind(), what);
                    assertEquals(r.path("group").asText(gv.group()), sub.group(), what);
                    assertEquals(r.path("version").asText(gv.version()), sub.version(), what);
                    assertEquals(strings(r.path("verbs")), sub.verbs(), what);
                }
            }
        }
    }

    @Test
    @DisplayName("storageVersionHash equals the reference for every stored resource")
    void storageVersionHashes() throws IOException {
        int checked = 0;
        for (Map.Entry<String, JsonNode> list : reference().path("resources").properties()) {
            GroupVersion gv = GroupVersion.parse(list.getKey());
            for (JsonNode r : list.getValue().path("resources")) {
                if (r.path("name").asText().contains("/")) {
                    continue;
                }
                ApiResource row = table.find(gv.group(), gv.version(), r.path("name").asText()).orElseThrow();
                String expected = r.hasNonNull("storageVersionHash") ? r.get("storageVersionHash").asText() : null;
                assertEquals(expected, table.storageVersionHash(row).orElse(null), gv + " " + row.name());
                checked++;
            }
        }
        assertTrue(checked > 50);
    }

    @Test
    @DisplayName("1.34 additions are served: resource.k8s.io/v1, IP addresses, service CIDRs, volume attributes classes")
    void servesAdditionsOf134() {
        for (String plural : List.of("deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices")) {
            assertTrue(table.find("resource.k8s.io", "v1", plural).isPresent(), plural);
        }
        assertTrue(table.find("networking.k8s.io", "v1", "ipaddresses").isPresent());
        assertTrue(table.find("networking.k8s.io", "v1", "servicecidrs").isPresent());
        assertEquals(List.of("vac"), table.find("storage.k8s.io", "v1", "volumeattributesclasses").orElseThrow().shortNames());
        assertEquals("Pod", table.find("", "v1", "pods").orElseThrow().subresource("resize").kind());
    }

    @Test
    @DisplayName("group-versions come in discovery order: core first, autoscaling v2 before v1")
    void discoveryOrder() {
        List<GroupVersion> gvs = table.groupVersions();
        assertEquals(new GroupVersion("", "v1"), gvs.getFirst());
        assertEquals(new GroupVersion("apiregistration.k8s.io", "v1"), gvs.get(1));
        assertTrue(gvs.indexOf(new GroupVersion("autoscaling", "v2")) < gvs.indexOf(new GroupVersion("autoscaling", "v1")));
        assertEquals("v2", table.preferredVersion("autoscaling"));
    }

    @Test
    @DisplayName("lookup by kind finds the main resource; subresource kinds are kept with their own group")
    void lookups() {
        ApiResource deployments = table.forKind(new GroupVersionKind("apps", "v1", "Deployment")).orElseThrow();
        assertEquals("deployments", deployments.name());
        ApiResource.Subresource scale = deployments.subresource("scale");
        assertEquals(new GroupVersionKind("autoscaling", "v1", "Scale"),
                new GroupVersionKind(scale.group(), scale.version(), scale.kind()));
        ApiResource.Subresource eviction = table.find("", "v1", "pods").orElseThrow().subresource("eviction");
        assertEquals("policy", eviction.group());
        ApiResource.Subresource token = table.find("", "v1", "serviceaccounts").orElseThrow().subresource("token");
        assertEquals("authentication.k8s.io", token.group());
        assertEquals("TokenRequest", token.kind());
    }

    @Test
    @DisplayName("every kind and subresource kind of the table has a schema definition")
    void everyKindHasASchema() {
        Schemas schemas = Schemas.load();
        List<String> missing = new ArrayList<>();
        for (ApiResource r : table.resources()) {
            if (schemas.definitionName(r.gvk()).isEmpty()) {
                missing.add(r.gvk().toString());
            }
            for (ApiResource.Subresource s : r.subresources()) {
                GroupVersionKind gvk = new GroupVersionKind(s.group(), s.version(), s.kind());
                if (schemas.definitionName(gvk).isEmpty()) {
                    missing.add(r.name() + "/" + s.name() + " " + gvk);
                }
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    @DisplayName("Kubernetes version priority: GA, then beta, then alpha, higher numbers first, others last")
    void versionPriority() {
        List<String> versions = new ArrayList<>(List.of("foo10", "v1", "v11alpha2", "v10beta3", "v2", "foo1",
                "v12alpha1", "v3beta1", "v10", "v11beta2"));
        versions.sort(ResourceTable::compareVersions);
        assertEquals(List.of("v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2",
                "foo1", "foo10"), versions);
    }

    @Test
    @DisplayName("custom resources are added after the built-in groups, versions by priority")
    void plusCustomResources() {
        ApiResource v1 = new ApiResource("example.com", "v1", "widgets", "widget", "Widget", true,
                List.of("get", "list"), List.of("wd"), List.of("all"), List.of());
        ApiResource v2beta1 = new ApiResource("example.com", "v2beta1", "widgets", "widget", "Widget", true,
                List.of("get", "list"), List.of(), List.of(), List.of());
        ApiResource a = new ApiResource("a.example.org", "v1", "things", "thing", "Thing", false,
                List.of("get"), List.of(), List.of(), List.of());
        ResourceTable extended = table.plus(List.of(v2beta1, v1, a));
        List<GroupVersion> gvs = extended.groupVersions();
        int builtins = table.groupVersions().size();
        assertEquals(List.of(new GroupVersion("a.example.org", "v1"), new GroupVersion("example.com", "v1"),
                new GroupVersion("example.com", "v2beta1")), gvs.subList(builtins, gvs.size()));
        assertEquals("v1", extended.preferredVersion("example.com"));
        assertEquals(v1, extended.find("example.com", "v1", "widgets").orElseThrow());
        assertTrue(extended.storageVersionHash(v1).isEmpty());
        ApiResource pods = table.find("", "v1", "pods").orElseThrow();
        assertEquals(table.storageVersionHash(pods), extended.storageVersionHash(pods));
        assertTrue(table.find("example.com", "v1", "widgets").isEmpty());
    }
}
