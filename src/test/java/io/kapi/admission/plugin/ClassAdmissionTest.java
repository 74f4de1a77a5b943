package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The default-on plugins about classes and protection: DefaultStorageClass, DefaultIngressClass,
 * StorageObjectInUseProtection, PersistentVolumeClaimResize, RuntimeClass and TaintNodesByCondition.
 */
class ClassAdmissionTest {

    @InMemoryApi
    private ApiHarness api;

    private JsonNode created(String path, ObjectNode object) {
        ApiHarness.Reply r = api.post(path, object.toString());
        assertEquals(201, r.code(), r.text());
        return r.body();
    }

    private static ObjectNode object(String apiVersion, String kind, String name) {
        ObjectNode o = Json.object().put("apiVersion", apiVersion).put("kind", kind);
        o.putObject("metadata").put("name", name);
        return o;
    }

    private void storageClass(String name, boolean isDefault, boolean expandable) {
        ObjectNode sc = object("storage.k8s.io/v1", "StorageClass", name).put("provisioner", "example.com/p")
                .put("allowVolumeExpansion", expandable);
        if (isDefault) {
            sc.with("metadata").putObject("annotations").put("storageclass.kubernetes.io/is-default-class", "true");
        }
        created("/apis/storage.k8s.io/v1/storageclasses", sc);
    }

    private static ObjectNode pvc(String name) {
        ObjectNode pvc = object("v1", "PersistentVolumeClaim", name);
        ObjectNode spec = pvc.putObject("spec");
        spec.putArray("accessModes").add("ReadWriteOnce");
        spec.putObject("resources").putObject("requests").put("storage", "1Gi");
        return pvc;
    }

    @Test
    @DisplayName("a new claim gets the default class and the pvc-protection finalizer; an explicit empty class stays")
    void defaultStorageClass() {
        storageClass("slow", false, false);
        storageClass("fast", true, false);
        JsonNode claim = created("/api/v1/namespaces/default/persistentvolumeclaims", pvc("c"));
        assertEquals("fast", claim.path("spec").path("storageClassName").asText());
        assertEquals("kubernetes.io/pvc-protection", claim.path("metadata").path("finalizers").get(0).asText());
        ObjectNode none = pvc("none");
        none.with("spec").put("storageClassName", "");
        assertEquals("", created("/api/v1/namespaces/default/persistentvolumeclaims", none)
                .path("spec").path("storageClassName").asText("x"));
        ObjectNode pv = object("v1", "PersistentVolume", "pv");
        pv.putObject("spec").put("storageClassName", "slow").putObject("capacity").put("storage", "1Gi");
        pv.with("spec").putArray("accessModes").add("ReadWriteOnce");
        pv.with("spec").putObject("hostPath").put("path", "/tmp");
        assertEquals("kubernetes.io/pv-protection", created("/api/v1/persistentvolumes", pv)
                .path("metadata").path("finalizers").get(0).asText());
    }

    @Test
    @DisplayName("growing a bound claim needs its class to allow expansion, worded as kube")
    void resize() {
        storageClass("fixed", false, false);
        storageClass("elastic", false, true);
        for (String cls : new String[] {"fixed", "elastic"}) {
            ObjectNode claim = pvc(cls);
            claim.with("spec").put("storageClassName", cls);
            created("/api/v1/namespaces/default/persistentvolumeclaims", claim);
            String path = "/api/v1/namespaces/default/persistentvolumeclaims/" + cls;
            ApiHarness.Reply unbound = api.patch(path, "application/merge-patch+json",
                    "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
            assertEquals(422, unbound.code(), "validation refuses an unbound claim's resize first, as kube's: " + unbound.text());
            assertEquals(200, api.patch(path + "/status", "application/merge-patch+json",
                    "{\"status\":{\"phase\":\"Bound\"}}").code());
        }
        ApiHarness.Reply fixed = api.patch("/api/v1/namespaces/default/persistentvolumeclaims/fixed",
                "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
        assertEquals(403, fixed.code(), fixed.text());
        assertEquals("persistentvolumeclaims \"fixed\" is forbidden: only dynamically provisioned pvc can be resized and "
                + "the storageclass that provisions the pvc must support resize", fixed.body().path("message").asText());
        ApiHarness.Reply elastic = api.patch("/api/v1/namespaces/default/persistentvolumeclaims/elastic",
                "application/merge-patch+json", "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
        assertFalse(elastic.code() == 403, elastic.text());
    }

    @Test
    @DisplayName("a new ingress gets the default IngressClass unless it names one (field or annotation)")
    void defaultIngressClass() {
        ObjectNode ic = object("networking.k8s.io/v1", "IngressClass", "nginx");
        ic.with("metadata").putObject("annotations").put("ingressclass.kubernetes.io/is-default-class", "true");
        ic.putObject("spec").put("controller", "example.com/ingress");
        created("/apis/networking.k8s.io/v1/ingressclasses", ic);
        ObjectNode ingress = object("networking.k8s.io/v1", "Ingress", "i");
        ingress.putObject("spec").putObject("defaultBackend").putObject("service").put("name", "s")
                .putObject("port").put("number", 80);
        assertEquals("nginx", created("/apis/networking.k8s.io/v1/namespaces/default/ingresses", ingress)
                .path("spec").path("ingressClassName").asText());
        ObjectNode annotated = ingress.deepCopy();
        annotated.with("metadata").put("name", "j").putObject("annotations").put("kubernetes.io/ingress.class", "other");
        assertFalse(created("/apis/networking.k8s.io/v1/namespaces/default/ingresses", annotated)
                .path("spec").has("ingressClassName"));
    }

    @Test
    @DisplayName("RuntimeClass: unknown class refused; overhead and scheduling copied; a conflict refused")
    void runtimeClass() {
        ObjectNode rc = object("node.k8s.io/v1", "RuntimeClass", "kata").put("handler", "kata");
        rc.putObject("overhead").putObject("podFixed").put("cpu", "250m").put("memory", "64Mi");
        ObjectNode scheduling = rc.putObject("scheduling");
        scheduling.putObject("nodeSelector").put("runtime", "kata");
        scheduling.putArray("tolerations").addObject().put("key", "kata").put("operator", "Exists");
        created("/apis/node.k8s.io/v1/runtimeclasses", rc);
        ObjectNode pod = PodSecurityTest.pod("p");
        pod.with("spec").put("runtimeClassName", "kata");
        JsonNode spec = created("/api/v1/namespaces/default/pods", pod).path("spec");
        assertEquals("250m", spec.path("overhead").path("cpu").asText());
        assertEquals("kata", spec.path("nodeSelector").path("runtime").asText());
        assertEquals(1, spec.path("tolerations").findValues("key").stream().filter(k -> k.asText().equals("kata")).count(),
                spec.path("tolerations").toString());
        ObjectNode missing = PodSecurityTest.pod("q");
        missing.with("spec").put("runtimeClassName", "gvisor");
        ApiHarness.Reply r = api.post("/api/v1/namespaces/default/pods", missing.toString());
        assertEquals(403, r.code(), r.text());
        assertEquals("pods \"q\" is forbidden: pod rejected: RuntimeClass \"gvisor\" not found",
                r.body().path("message").asText());
        ObjectNode conflict = PodSecurityTest.pod("x");
        conflict.with("spec").put("runtimeClassName", "kata").putObject("nodeSelector").put("runtime", "runc");
        assertEquals("pods \"x\" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; "
                + "pod.spec.nodeSelector[runtime] = runc",
                api.post("/api/v1/namespaces/default/pods", conflict.toString()).body().path("message").asText());
        ObjectNode overhead = PodSecurityTest.pod("o");
        overhead.with("spec").putObject("overhead").put("cpu", "1");
        assertEquals("pods \"o\" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined "
                + "Overhead", api.post("/api/v1/namespaces/default/pods", overhead.toString()).body().path("message").asText());
    }

    @Test
    @DisplayName("a new node is tainted not-ready:NoSchedule, once")
    void taintNewNodes() {
        JsonNode taints = created("/api/v1/nodes", object("v1", "Node", "n1")).path("spec").path("taints");
        assertEquals(1, taints.size(), taints.toString());
        assertEquals("node.kubernetes.io/not-ready", taints.get(0).path("key").asText());
        assertEquals("NoSchedule", taints.get(0).path("effect").asText());
        ObjectNode tainted = object("v1", "Node", "n2");
        tainted.putObject("spec").putArray("taints").addObject().put("key", "node.kubernetes.io/not-ready")
                .put("effect", "NoSchedule");
        assertEquals(1, created("/api/v1/nodes", tainted).path("spec").path("taints").size());
    }
}
