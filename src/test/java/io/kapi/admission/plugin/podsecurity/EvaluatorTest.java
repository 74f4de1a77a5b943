package io.kapi.admission.plugin.podsecurity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The checks' wording and versions, against kube's pod-security-admission cases. */
class EvaluatorTest {

    private final Evaluator evaluator = new Evaluator();

    private String at(String levelVersion, String podJson) {
        String[] lv = levelVersion.split(":");
        Level level = Level.parse(lv[0]).orElseThrow();
        int minor = LevelVersion.parseVersion(lv[1]).orElseThrow();
        JsonNode pod = readTree(podJson);
        return Violation.describe(evaluator.evaluate(new LevelVersion(level, minor),
                new PodView(pod.path("metadata"), pod.path("spec"))));
    }

    private static JsonNode readTree(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("baseline: capabilities, volumes, seLinux, sysctls, procMount, AppArmor and probes, in ID order")
    void baseline() {
        String pod = """
            {"metadata": {"annotations": {"container.apparmor.security.beta.kubernetes.io/a": "unconfined"}},
             "spec": {"securityContext": {"sysctls": [{"name": "kernel.msgmax"}, {"name": "net.ipv4.tcp_rmem"}],
                                          "seLinuxOptions": {"type": "spc_t", "user": "u"}},
              "volumes": [{"name": "h", "hostPath": {"path": "/"}}],
              "containers": [{"name": "a", "securityContext": {"capabilities": {"add": ["NET_ADMIN", "CHOWN", "BPF"]},
                                                                "procMount": "Unmasked"},
                              "livenessProbe": {"httpGet": {"host": "evil", "port": 80}}},
                             {"name": "b", "ports": [{"containerPort": 1, "hostPort": 8080}, {"hostPort": 10000}]}]}}
            """;
        assertEquals("forbidden AppArmor profile (annotation must not set AppArmor profile type to "
                + "\"container.apparmor.security.beta.kubernetes.io/a=\"unconfined\"\"), "
                + "non-default capabilities (container \"a\" must not include \"BPF\", \"NET_ADMIN\" in "
                + "securityContext.capabilities.add), hostPath volumes (volume \"h\"), "
                + "hostPort (container \"b\" uses hostPorts 10000, 8080), "
                + "probe or lifecycle host (container \"a\" uses probe or lifecycle host \"evil\"), "
                + "procMount (container \"a\" must not set securityContext.procMount to \"Unmasked\"), "
                + "seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type \"spc_t\"; user may not be set), "
                + "forbidden sysctls (kernel.msgmax)", at("baseline:latest", pod));
        assertEquals("forbidden sysctls (kernel.msgmax, net.ipv4.tcp_rmem)", at("baseline:v1.31",
                "{\"spec\": {\"securityContext\": {\"sysctls\": [{\"name\": \"kernel.msgmax\"}, "
                        + "{\"name\": \"net.ipv4.tcp_rmem\"}]}, \"containers\": [{\"name\": \"a\"}]}}"));
        assertEquals("", at("baseline:v1.33", "{\"spec\": {\"containers\": [{\"name\": \"a\", \"startupProbe\": "
                + "{\"tcpSocket\": {\"host\": \"x\"}}}]}}"));
    }

    @Test
    @DisplayName("restricted replaces the baseline capability, hostPath and seccomp checks with its own")
    void restrictedOverrides() {
        String pod = """
            {"spec": {"securityContext": {"runAsNonRoot": true, "seccompProfile": {"type": "Unconfined"}},
              "volumes": [{"name": "h", "hostPath": {"path": "/"}}, {"name": "n", "nfs": {}}, {"name": "c", "configMap": {}}],
              "containers": [{"name": "a", "securityContext": {"allowPrivilegeEscalation": false,
                              "capabilities": {"drop": ["ALL"], "add": ["NET_ADMIN", "NET_BIND_SERVICE"]}}}]}}
            """;
        assertEquals("unrestricted capabilities (container \"a\" must not include \"NET_ADMIN\" in "
                + "securityContext.capabilities.add), restricted volume types (volumes \"h\", \"n\" use restricted volume "
                + "types \"hostPath\", \"nfs\"), seccompProfile (pod must not set securityContext.seccompProfile.type to "
                + "\"Unconfined\")", at("restricted:latest", pod));
        assertEquals("non-default capabilities (container \"a\" must not include \"NET_ADMIN\" in "
                + "securityContext.capabilities.add), hostPath volumes (volume \"h\"), seccompProfile (pod must not set "
                + "securityContext.seccompProfile.type to \"Unconfined\")", at("baseline:latest", pod));
    }

    @Test
    @DisplayName("windows pods (1.25+) need no capabilities, seccomp or allowPrivilegeEscalation; before 1.19 seccomp is annotations")
    void versionedExemptions() {
        String windows = "{\"spec\": {\"os\": {\"name\": \"windows\"}, \"securityContext\": {\"runAsNonRoot\": true}, "
                + "\"containers\": [{\"name\": \"w\"}]}}";
        assertEquals("", at("restricted:latest", windows));
        assertEquals("allowPrivilegeEscalation != false (container \"w\" must set "
                + "securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"w\" must set "
                + "securityContext.capabilities.drop=[\"ALL\"]), seccompProfile (pod or container \"w\" must set "
                + "securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")", at("restricted:v1.24", windows));
        String annotated = "{\"metadata\": {\"annotations\": {\"seccomp.security.alpha.kubernetes.io/pod\": \"unconfined\"}}, "
                + "\"spec\": {\"containers\": [{\"name\": \"a\"}]}}";
        assertEquals("seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod=\"unconfined\")",
                at("baseline:v1.18", annotated));
        assertEquals("", at("baseline:v1.19", annotated));
    }
}
