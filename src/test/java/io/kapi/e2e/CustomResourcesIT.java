package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CustomResourceDefinitions as a new user tries them, with the real kubectl: a CRD with a schema (defaults,
 * enum, bounds, pattern), status and scale subresources, printer columns, a short name, a category and two
 * served versions; its custom resources created, listed, watched, applied, patched, scaled and deleted;
 * the CRD deleted with its objects and its API.
 */
@DisplayName("custom resources with kubectl")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class CustomResourcesIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--storage-backend=memory");

    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: crontabs.stable.example.com
            spec:
              group: stable.example.com
              scope: Namespaced
              names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct], categories: [all]}
              versions:
              - name: v1
                served: true
                storage: true
                deprecated: true
                subresources: &subresources
                  status: {}
                  scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
                additionalPrinterColumns: &columns
                - {name: Spec, type: string, jsonPath: .spec.cronSpec}
                - {name: Replicas, type: integer, jsonPath: .spec.replicas}
                - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
                schema:
                  openAPIV3Schema: &schema
                    type: object
                    properties:
                      spec:
                        type: object
                        x-kubernetes-validations:
                        - {rule: "self.image != 'forbidden'", message: image must not be forbidden}
                        properties:
                          cronSpec: {type: string, pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'}
                          image: {type: string}
                          color: {type: string, enum: [red, blue], default: red}
                          replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
                      status:
                        type: object
                        properties:
                          replicas: {type: integer}
              - name: v2
                served: true
                storage: false
                subresources: *subresources
                additionalPrinterColumns: *columns
                schema:
                  openAPIV3Schema: *schema
            """;

    private static final String CRONTAB = """
            apiVersion: stable.example.com/v1
            kind: CronTab
            metadata:
              name: my-cron
            spec:
              cronSpec: "* * * * */5"
              image: my-image
              unknownField: 3
            """;

    private static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }


    @Test
    @Order(1)
    @DisplayName("kubectl wait for Established succeeds, and the short name prints the printer columns")
    void established() {
        KAPI.kubectl().runWithInput(CRD, "apply", "-f", "-").assertOk();
        kubectl("wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=60s").assertOk();
        Kubectl.Result strict = KAPI.kubectl().runWithInput(CRONTAB, "create", "-f", "-").assertFailed();
        assertTrue(strict.stderr().contains("CronTab in version \"v1\" cannot be handled as a CronTab: strict decoding "
                + "error: unknown field \"spec.unknownField\""), strict.toString());
        KAPI.kubectl().runWithInput(CRONTAB, "create", "--validate=false", "-f", "-").assertOk();
        String table = kubectl("get", "ct").assertOk().stdout();
        assertTrue(table.startsWith("NAME      SPEC          REPLICAS   AGE"), table);
        assertTrue(table.contains("my-cron   * * * * */5   1"), table);
        JsonNode cron = kubectl("get", "crontab", "my-cron", "-o", "json").json();
        assertFalse(cron.path("spec").has("unknownField"), "pruned: " + cron);
        assertEquals("red", cron.path("spec").path("color").asText(), "defaulted: " + cron);
        assertTrue(kubectl("get", "all").assertOk().stdout().contains("crontab.stable.example.com/my-cron"));
        assertTrue(kubectl("explain", "crontab.spec").assertOk().stdout().contains("cronSpec"));
    }

    @Test
    @Order(2)
    @DisplayName("an invalid object is refused with kube-apiserver's messages, schema and CEL rule")
    void invalid() {
        Kubectl.Result bad = KAPI.kubectl().runWithInput(CRONTAB.replace("my-cron", "bad").replace("unknownField: 3",
                "color: pink\n  replicas: 20").replace("* * * * */5", "nope"), "create", "-f", "-").assertFailed();
        assertTrue(bad.stderr().contains("The CronTab \"bad\" is invalid: \n"
                + "* spec.color: Unsupported value: \"pink\": supported values: \"red\", \"blue\"\n"
                + "* spec.cronSpec: Invalid value: \"nope\": spec.cronSpec in body should match "), bad.toString());
        assertTrue(bad.stderr().contains("* spec.replicas: Invalid value: 20: spec.replicas in body should be less "
                + "than or equal to 10"), bad.toString());
        Kubectl.Result rule = KAPI.kubectl().runWithInput(CRONTAB.replace("my-cron", "ruled").replace("my-image",
                "forbidden"), "create", "--validate=false", "-f", "-").assertFailed();
        assertTrue(rule.stderr().contains("The CronTab \"ruled\" is invalid: spec: Invalid value: \"object\": image must "
                + "not be forbidden"), rule.toString());
    }

    @Test
    @Order(3)
    @DisplayName("kubectl scale, patch --subresource=status, merge and JSON patches, apply; strategic merge refused")
    void writes() {
        kubectl("scale", "ct", "my-cron", "--replicas=3").assertOk();
        kubectl("patch", "ct", "my-cron", "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"replicas\":3}}").assertOk();
        JsonNode scale = kubectl("get", "--raw", "/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron/scale").json();
        assertEquals(3, scale.path("spec").path("replicas").asInt());
        assertEquals(3, scale.path("status").path("replicas").asInt());
        kubectl("patch", "ct", "my-cron", "--type=merge", "-p", "{\"spec\":{\"image\":\"v2\"}}").assertOk();
        kubectl("patch", "ct", "my-cron", "--type=json", "-p",
                "[{\"op\":\"replace\",\"path\":\"/spec/image\",\"value\":\"v3\"}]").assertOk();
        Kubectl.Result strategic = kubectl("patch", "ct", "my-cron", "-p", "{\"spec\":{\"image\":\"v4\"}}").assertFailed();
        assertTrue(strategic.stderr().contains("application/strategic-merge-patch+json is not supported by "
                + "stable.example.com/v2, Kind=CronTab: the body of the request was in an unknown format"), strategic.toString());
        JsonNode cron = kubectl("get", "ct", "my-cron", "-o", "json").json();
        assertEquals("v3", cron.path("spec").path("image").asText());
        assertEquals(3, cron.path("status").path("replicas").asInt());

        String applied = CRONTAB.replace("my-cron", "applied").replace("  unknownField: 3\n", "");
        KAPI.kubectl().runWithInput(applied, "apply", "-f", "-").assertOk();
        KAPI.kubectl().runWithInput(applied.replace("my-image", "second"), "apply", "-f", "-").assertOk();
        KAPI.kubectl().runWithInput(applied.replace("my-image", "third"), "apply", "--server-side",
                "--force-conflicts", "-f", "-").assertOk();
        Kubectl.Result conflict = KAPI.kubectl().runWithInput(applied.replace("my-image", "fourth"), "apply",
                "--server-side", "--field-manager=other", "-f", "-").assertFailed();
        assertTrue(conflict.stderr().contains("conflict with \"kubectl\""), conflict.toString());
        assertEquals("third", kubectl("get", "ct", "applied", "-o", "json").json().path("spec").path("image").asText());
    }

    @Test
    @Order(4)
    @DisplayName("the second served version reads and writes the same objects, with the deprecation warning on v1")
    void versions() {
        Kubectl.Result v2 = kubectl("get", "crontabs.v2.stable.example.com", "my-cron", "-o", "json");
        assertEquals("stable.example.com/v2", v2.json().path("apiVersion").asText());
        Kubectl.Result v1 = kubectl("get", "crontabs.v1.stable.example.com", "my-cron", "-o", "json");
        assertTrue(v1.stderr().contains("stable.example.com/v1 CronTab is deprecated"), v1.toString());
    }

    @Test
    @Order(5)
    @DisplayName("a watch from a list's resourceVersion sees the deletion of a custom resource")
    void watch() {
        String rv = kubectl("get", "--raw", "/apis/stable.example.com/v1/namespaces/default/crontabs").json()
                .path("metadata").path("resourceVersion").asText();
        assertFalse(rv.isEmpty());
        kubectl("delete", "ct", "applied").assertOk();
        String events = kubectl("get", "--raw", "/apis/stable.example.com/v1/namespaces/default/crontabs?watch=1"
                + "&resourceVersion=" + rv + "&timeoutSeconds=2").assertOk().stdout();
        assertTrue(events.contains("{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"stable.example.com/v1\","
                + "\"kind\":\"CronTab\""), events);
        assertTrue(events.contains("\"name\":\"applied\""), events);
    }

    @Test
    @Order(6)
    @DisplayName("deleting the CRD removes its objects and its API; created again, it starts empty")
    void deletion() {
        kubectl("delete", "crd", "crontabs.stable.example.com", "--timeout=60s").assertOk();
        assertTrue(kubectl("get", "crd").assertOk().stdout().isEmpty());
        Kubectl.Result gone = kubectl("get", "--raw", "/apis/stable.example.com/v1");
        assertTrue(gone.stderr().contains("NotFound"), gone.toString());
        KAPI.kubectl().runWithInput(CRD, "apply", "-f", "-").assertOk();
        kubectl("wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=60s").assertOk();
        assertTrue(kubectl("get", "ct").assertOk().stderr().contains("No resources found"));
    }

    private static final String GADGETS = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: gadgets.single.example.com
            spec:
              group: single.example.com
              scope: Namespaced
              names: {plural: gadgets, singular: gadget, kind: Gadget}
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        properties:
                          size: {type: integer}
            """;

    @Test
    @Order(7)
    @DisplayName("list items carry apiVersion and kind (kubectl -o json, fabric8 generic resources), and a default added "
            + "to the schema later applies to stored objects when they are read, in single- and multi-version CRDs")
    void listItemsAndReadDefaults() throws Exception {
        KAPI.kubectl().runWithInput(GADGETS, "apply", "-f", "-").assertOk();
        kubectl("wait", "--for=condition=Established", "crd/gadgets.single.example.com", "--timeout=60s").assertOk();
        KAPI.kubectl().runWithInput("apiVersion: single.example.com/v1\nkind: Gadget\nmetadata: {name: g1}\n"
                + "spec: {size: 3}\n", "create", "-f", "-").assertOk();
        KAPI.kubectl().runWithInput(CRONTAB.replace("my-cron", "later").replace("  unknownField: 3\n", ""),
                "create", "-f", "-").assertOk();
        JsonNode items = kubectl("get", "gadgets", "-o", "json").json().path("items");
        assertEquals("single.example.com/v1", items.get(0).path("apiVersion").asText(), items.toString());
        assertEquals("Gadget", items.get(0).path("kind").asText(), items.toString());
        JsonNode crons = kubectl("get", "crontabs.v1.stable.example.com", "-o", "json").json().path("items");
        assertEquals("stable.example.com/v1", crons.get(0).path("apiVersion").asText(), crons.toString());
        assertEquals("CronTab", crons.get(0).path("kind").asText(), crons.toString());
        try (KubernetesClient fabric8 = KAPI.fabric8()) {
            var list = fabric8.genericKubernetesResources("single.example.com/v1", "Gadget").inNamespace("default").list();
            assertEquals("single.example.com/v1", list.getItems().getFirst().getApiVersion());
            assertEquals("Gadget", list.getItems().getFirst().getKind());
            var v2 = fabric8.genericKubernetesResources("stable.example.com/v2", "CronTab").inNamespace("default").list();
            assertEquals("stable.example.com/v2", v2.getItems().getFirst().getApiVersion());
        }

        String tier = "{\"type\":\"string\",\"default\":\"gold\"}";
        kubectl("patch", "crd", "gadgets.single.example.com", "--type=json", "-p", "[{\"op\":\"add\",\"path\":"
                + "\"/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/tier\",\"value\":" + tier + "}]")
                .assertOk();
        kubectl("patch", "crd", "crontabs.stable.example.com", "--type=json", "-p", "[{\"op\":\"add\",\"path\":"
                + "\"/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/tier\",\"value\":" + tier + "},"
                + "{\"op\":\"add\",\"path\":\"/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/tier\","
                + "\"value\":" + tier + "}]").assertOk();
        // the CRD's update reaches the served definitions a moment later: read until it shows, for up to a minute
        Await crdUpdate = Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(200));
        assertEquals("gold", crdUpdate.poll(() -> kubectl("get", "gadget", "g1", "-o", "json").json()
                .path("spec").path("tier").asText(), "gold"::equals), "defaulted on read, single version");
        assertEquals("gold", crdUpdate.poll(() -> kubectl("get", "crontabs.v2.stable.example.com", "later", "-o", "json").json()
                .path("spec").path("tier").asText(), "gold"::equals), "defaulted on read from the v1 storage, served as v2");
        JsonNode listed = kubectl("get", "gadgets", "-o", "json").json().path("items").get(0);
        assertEquals("gold", listed.path("spec").path("tier").asText(), "lists too: " + listed);
        String watched = kubectl("get", "--raw", "/apis/single.example.com/v1/namespaces/default/gadgets?watch=1"
                + "&timeoutSeconds=1").assertOk().stdout();
        assertTrue(watched.contains("\"tier\":\"gold\""), "watches too: " + watched);
    }

    @Test
    @Order(8)
    @DisplayName("a CRD of a group the Kubernetes project owns needs api-approved.kubernetes.io, and gets "
            + "KubernetesAPIApprovalPolicyConformant from it")
    void apiApproval() throws Exception {
        String crd = GADGETS.replace("single.example.com", "experimental.k8s.io");
        Kubectl.Result missing = KAPI.kubectl().runWithInput(crd, "create", "-f", "-").assertFailed();
        assertTrue(missing.stderr().contains("metadata.annotations[api-approved.kubernetes.io]: Required value: protected "
                + "groups must have approval annotation \"api-approved.kubernetes.io\", see "
                + "https://github.com/kubernetes/enhancements/pull/1111"), missing.toString());
        KAPI.kubectl().runWithInput(crd.replace("  name: gadgets.experimental.k8s.io\n", "  name: gadgets.experimental.k8s.io\n"
                + "  annotations: {api-approved.kubernetes.io: 'unapproved, testing only'}\n"), "create", "-f", "-").assertOk();
        String name = "crd/gadgets.experimental.k8s.io";
        kubectl("wait", "--for=condition=KubernetesAPIApprovalPolicyConformant=false", name, "--timeout=60s").assertOk();
        JsonNode c = condition(kubectl("get", name, "-o", "json").json(), "KubernetesAPIApprovalPolicyConformant");
        assertEquals("UnapprovedAnnotation", c.path("reason").asText(), c.toString());
        assertEquals("not approved: \"unapproved, testing only\"", c.path("message").asText(), c.toString());
        kubectl("annotate", "--overwrite", name, "api-approved.kubernetes.io=https://github.com/kubernetes/kubernetes/pull/1")
                .assertOk();
        kubectl("wait", "--for=condition=KubernetesAPIApprovalPolicyConformant=true", name, "--timeout=60s").assertOk();
        assertEquals(null, condition(kubectl("get", "crd/gadgets.single.example.com", "-o", "json").json(),
                "KubernetesAPIApprovalPolicyConformant"), "only the project's groups have it");
    }

    private static JsonNode condition(JsonNode crd, String type) {
        for (JsonNode c : crd.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }
}
