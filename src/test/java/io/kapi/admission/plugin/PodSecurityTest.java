package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** PodSecurity through the whole API: namespace labels, enforce, warn, workloads, versions, existing pods. */
class PodSecurityTest {

    private static final String RESTRICTED_MINIMAL = "violates PodSecurity \"restricted:latest\": "
            + "allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), "
            + "unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), "
            + "runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), "
            + "seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" "
            + "or \"Localhost\")";

    @InMemoryApi
    private ApiHarness api;

    private void namespace(String name, Map<String, String> labels) {
        ApiHarness.Reply r = api.post("/api/v1/namespaces", namespaceJson(name, labels).toString());
        assertEquals(201, r.code(), r.text());
        ObjectNode sa = Json.object().put("apiVersion", "v1").put("kind", "ServiceAccount");
        sa.putObject("metadata").put("name", "default");
        api.post("/api/v1/namespaces/" + name + "/serviceaccounts", sa.toString());
    }

    private static ObjectNode namespaceJson(String name, Map<String, String> labels) {
        ObjectNode ns = Json.object().put("apiVersion", "v1").put("kind", "Namespace");
        ObjectNode l = ns.putObject("metadata").put("name", name).putObject("labels");
        labels.forEach((k, v) -> l.put("pod-security.kubernetes.io/" + k, v));
        return ns;
    }

    private ApiHarness.Reply create(String namespace, ObjectNode pod) {
        return api.post("/api/v1/namespaces/" + namespace + "/pods", pod.toString());
    }

    static ObjectNode pod(String name) {
        ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", name);
        pod.putObject("spec").putArray("containers").addObject().put("name", "c").put("image", "nginx");
        return pod;
    }

    static ObjectNode restrictedPod(String name) {
        ObjectNode pod = pod(name);
        ObjectNode sc = ((ObjectNode) pod.path("spec").path("containers").get(0)).putObject("securityContext");
        sc.put("allowPrivilegeEscalation", false).put("runAsNonRoot", true);
        sc.putObject("capabilities").putArray("drop").add("ALL");
        sc.putObject("seccompProfile").put("type", "RuntimeDefault");
        return pod;
    }

    private static ObjectNode container(ObjectNode pod) {
        return (ObjectNode) pod.path("spec").path("containers").get(0);
    }

    private static List<String> warnings(ApiHarness.Reply r) {
        return r.header("Warning").stream().map(w -> w.replaceFirst("^299 - \"", "").replaceFirst("\"$", "")
                .replace("\\\"", "\"")).toList();
    }

    @Test
    @DisplayName("enforce=restricted refuses a plain pod with kube's four violations, in kube's order")
    void restrictedRefuses() {
        namespace("r", Map.of("enforce", "restricted"));
        ApiHarness.Reply r = create("r", pod("p"));
        assertEquals(403, r.code(), r.text());
        assertEquals("Forbidden", r.body().path("reason").asText());
        assertEquals("pods \"p\" is forbidden: " + RESTRICTED_MINIMAL, r.body().path("message").asText());
        assertEquals(201, create("r", restrictedPod("ok")).code());
    }

    @Test
    @DisplayName("baseline enforce with restricted warn: privileged is refused, a plain pod is created with a warning")
    void baselineWithWarning() {
        namespace("b", Map.of("enforce", "baseline", "warn", "restricted"));
        ObjectNode privileged = pod("priv");
        container(privileged).putObject("securityContext").put("privileged", true);
        privileged.with("spec").put("hostNetwork", true);
        container(privileged).putArray("ports").addObject().put("containerPort", 80).put("hostPort", 80);
        ApiHarness.Reply denied = create("b", privileged);
        assertEquals(403, denied.code(), denied.text());
        assertEquals("pods \"priv\" is forbidden: violates PodSecurity \"baseline:latest\": host namespaces "
                + "(hostNetwork=true), hostPort (container \"c\" uses hostPort 80), privileged (container \"c\" must not set "
                + "securityContext.privileged=true)", denied.body().path("message").asText());
        assertTrue(denied.header("Warning").isEmpty(), "no warning on a refused request");
        ApiHarness.Reply warned = create("b", pod("plain"));
        assertEquals(201, warned.code(), warned.text());
        assertEquals(List.of("would violate" + RESTRICTED_MINIMAL.substring("violates".length())), warnings(warned));
    }

    @Test
    @DisplayName("a label that does not parse is refused on create, worded as kube's field errors")
    void invalidLabels() {
        ApiHarness.Reply r = api.post("/api/v1/namespaces",
                namespaceJson("bad", Map.of("enforce", "super", "warn-version", "1.30")).toString());
        assertEquals(422, r.code(), r.text());
        assertEquals("Namespace \"bad\" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "
                + "\"super\": must be one of privileged, baseline, restricted, "
                + "metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: \"1.30\": must be \"latest\" or "
                + "\"v1.x\"]", r.body().path("message").asText());
    }

    @Test
    @DisplayName("tightening a namespace's enforce level warns about the existing pods that violate it")
    void existingPods() {
        namespace("t", Map.of());
        ObjectNode privileged = pod("a-priv");
        container(privileged).putObject("securityContext").put("privileged", true);
        assertEquals(201, create("t", privileged).code());
        ObjectNode other = pod("b-priv");
        container(other).putObject("securityContext").put("privileged", true);
        assertEquals(201, create("t", other).code());
        assertEquals(201, create("t", pod("plain")).code());
        ObjectNode ns = (ObjectNode) api.get("/api/v1/namespaces/t").body();
        ns.with("metadata").with("labels").put("pod-security.kubernetes.io/enforce", "baseline");
        ApiHarness.Reply r = api.put("/api/v1/namespaces/t", ns.toString());
        assertEquals(200, r.code(), r.text());
        assertEquals(List.of("existing pods in namespace \"t\" violate the new PodSecurity enforce level \"baseline:latest\"",
                "a-priv (and 1 other pod): privileged"), warnings(r));
    }

    @Test
    @DisplayName("a deployment's pod template is warned about, never refused")
    void workloadsWarnOnly() {
        namespace("w", Map.of("enforce", "restricted", "warn", "baseline"));
        ObjectNode d = Json.object().put("apiVersion", "apps/v1").put("kind", "Deployment");
        d.putObject("metadata").put("name", "d");
        ObjectNode spec = d.putObject("spec");
        spec.putObject("selector").putObject("matchLabels").put("app", "d");
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "d");
        ObjectNode podSpec = template.putObject("spec");
        podSpec.put("hostPID", true).putArray("containers").addObject().put("name", "c").put("image", "nginx");
        ApiHarness.Reply r = api.post("/apis/apps/v1/namespaces/w/deployments", d.toString());
        assertEquals(201, r.code(), r.text());
        assertEquals(List.of("would violate PodSecurity \"baseline:latest\": host namespaces (hostPID=true)"), warnings(r));
    }

    @Test
    @DisplayName("a cron job's and a pod template's templates are warned about where each kind holds its template")
    void templatesWhereTheKindHoldsThem() {
        namespace("t", Map.of("warn", "baseline"));
        ObjectNode cronJob = Json.object().put("apiVersion", "batch/v1").put("kind", "CronJob");
        cronJob.putObject("metadata").put("name", "cj");
        ObjectNode cronSpec = cronJob.putObject("spec").put("schedule", "*/5 * * * *");
        ObjectNode jobPod = cronSpec.putObject("jobTemplate").putObject("spec").putObject("template").putObject("spec");
        jobPod.put("hostIPC", true).put("restartPolicy", "OnFailure")
                .putArray("containers").addObject().put("name", "c").put("image", "nginx");
        ApiHarness.Reply r = api.post("/apis/batch/v1/namespaces/t/cronjobs", cronJob.toString());
        assertEquals(201, r.code(), r.text());
        assertEquals(List.of("would violate PodSecurity \"baseline:latest\": host namespaces (hostIPC=true)"), warnings(r));

        ObjectNode podTemplate = Json.object().put("apiVersion", "v1").put("kind", "PodTemplate");
        podTemplate.putObject("metadata").put("name", "pt");
        ObjectNode templatePod = podTemplate.putObject("template").putObject("spec");
        templatePod.put("hostNetwork", true).putArray("containers").addObject().put("name", "c").put("image", "nginx");
        r = api.post("/api/v1/namespaces/t/podtemplates", podTemplate.toString());
        assertEquals(201, r.code(), r.text());
        assertEquals(List.of("would violate PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true)"),
                warnings(r));
    }

    @Test
    @DisplayName("the version label selects the checks: runAsUser=0 is allowed by restricted v1.22, not by latest")
    void versions() {
        namespace("old", Map.of("enforce", "restricted", "enforce-version", "v1.22"));
        namespace("new", Map.of("enforce", "restricted"));
        ObjectNode root = restrictedPod("root");
        container(root).with("securityContext").put("runAsUser", 0);
        assertEquals(201, create("old", root).code());
        ApiHarness.Reply r = create("new", root);
        assertEquals(403, r.code());
        assertEquals("pods \"root\" is forbidden: violates PodSecurity \"restricted:latest\": runAsUser=0 (container \"c\" "
                + "must not set runAsUser=0)", r.body().path("message").asText());
    }

    @Test
    @DisplayName("an update that changes no image is not evaluated again")
    void insignificantUpdate() {
        namespace("u", Map.of());
        ObjectNode privileged = pod("p");
        container(privileged).putObject("securityContext").put("privileged", true);
        assertEquals(201, create("u", privileged).code());
        ObjectNode ns = (ObjectNode) api.get("/api/v1/namespaces/u").body();
        ns.with("metadata").with("labels").put("pod-security.kubernetes.io/enforce", "baseline");
        assertEquals(200, api.put("/api/v1/namespaces/u", ns.toString()).code());
        ObjectNode stored = (ObjectNode) api.get("/api/v1/namespaces/u/pods/p").body();
        stored.with("metadata").with("labels").put("x", "y");
        assertEquals(200, api.put("/api/v1/namespaces/u/pods/p", stored.toString()).code());
        stored = (ObjectNode) api.get("/api/v1/namespaces/u/pods/p").body();
        container(stored).put("image", "nginx:2");
        assertEquals(403, api.put("/api/v1/namespaces/u/pods/p", stored.toString()).code());
    }
}
