package io.kapi.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The audit policy as kube's {@code policyRuleEvaluator}: first match wins, each rule field narrows. */
@DisplayName("audit policy")
final class PolicyTest {

    private static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: ["RequestReceived"]
            omitManagedFields: true
            rules:
            - level: None
              users: ["system:kube-proxy"]
            - level: None
              userGroups: ["system:nodes"]
              verbs: ["get"]
            - level: Metadata
              resources:
              - group: ""
                resources: ["secrets", "configmaps"]
              omitManagedFields: false
            - level: Request
              resources:
              - group: ""
                resources: ["pods/log", "*/status"]
            - level: RequestResponse
              resources:
              - group: "apps"
                resources: ["deployments/*"]
            - level: Request
              resources:
              - group: ""
                resources: ["services"]
                resourceNames: ["special"]
            - level: RequestResponse
              namespaces: ["audited"]
              omitStages: ["ResponseStarted"]
            - level: Metadata
              nonResourceURLs: ["/healthz*", "/version"]
            - level: None
              nonResourceURLs: ["*"]
            - level: Request
              verbs: ["create", "update"]
            """;

    @TempDir
    Path dir;

    private Policy policy(String text) throws IOException {
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, text);
        return Policy.load(file);
    }

    @ParameterizedTest(name = "{0} {1} {2} → {3}")
    @DisplayName("the first matching rule gives the level")
    @CsvSource({
            "system:kube-proxy, GET,    /api/v1/namespaces/a/secrets/s,                 None",
            "node,              GET,    /api/v1/namespaces/a/pods/p,                    None",
            "node,              DELETE, /api/v1/namespaces/a/secrets/p,                 Metadata",
            "alice,             GET,    /api/v1/namespaces/a/configmaps,                Metadata",
            "alice,             GET,    /api/v1/namespaces/a/pods/p/log,                Request",
            "alice,             PUT,    /api/v1/namespaces/a/pods/p/status,             Request",
            "alice,             GET,    /apis/apps/v1/namespaces/a/deployments/d/scale, RequestResponse",
            "alice,             GET,    /apis/apps/v1/namespaces/a/deployments/d,       RequestResponse",
            "alice,             GET,    /apis/apps/v1/namespaces/a/replicasets/d,       None",
            "alice,             GET,    /api/v1/namespaces/a/services/special,          Request",
            "alice,             GET,    /api/v1/namespaces/a/services/other,            None",
            "alice,             GET,    /api/v1/namespaces/audited/services/other,      RequestResponse",
            "alice,             GET,    /healthz/etcd,                                  Metadata",
            "alice,             GET,    /version,                                       Metadata",
            "alice,             GET,    /versions,                                      None",
            "alice,             POST,   /api/v1/namespaces/a/services,                  Request",
    })
    void firstMatchWins(String user, String method, String path, String level) throws IOException {
        UserInfo u = new UserInfo(user, "", user.equals("node") ? List.of("system:nodes") : List.of("system:authenticated"));
        Policy.RequestConfig c = policy(POLICY).evaluate(u, RequestInfo.parse(method, path, Map.of()));
        assertEquals(level, c.level().apiName());
    }

    @Test
    @DisplayName("omitted stages join the policy's and the rule's; omitManagedFields falls back to the policy's")
    void stagesAndManagedFields() throws IOException {
        Policy p = policy(POLICY);
        UserInfo alice = new UserInfo("alice", "", List.of());
        Policy.RequestConfig ns = p.evaluate(alice, RequestInfo.parse("GET", "/api/v1/namespaces/audited/pods", Map.of()));
        assertEquals(Set.of(Stage.REQUEST_RECEIVED, Stage.RESPONSE_STARTED), ns.omitStages());
        assertEquals(true, ns.omitManagedFields());
        Policy.RequestConfig secrets = p.evaluate(alice, RequestInfo.parse("GET", "/api/v1/namespaces/a/secrets", Map.of()));
        assertEquals(false, secrets.omitManagedFields());
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> invalidPolicies() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("rules:\n- level: Foo",
                        "rules[0].level: Unsupported value: \"Foo\": supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\""),
                org.junit.jupiter.params.provider.Arguments.of("rules:\n- users: [a]", "rules[0].level: Required value"),
                org.junit.jupiter.params.provider.Arguments.of("rules:\n- level: None\n  nonResourceURLs: [\"healthz\"]",
                        "rules[0].nonResourceURLs[0]: Invalid value: \"healthz\": non-resource URL rules must begin with a '/' character"),
                org.junit.jupiter.params.provider.Arguments.of("rules:\n- level: None\n  nonResourceURLs: [\"/a*b\"]",
                        "rules[0].nonResourceURLs[0]: Invalid value: \"/a*b\": non-resource URL wildcards '*' must be the final character of the rule"),
                org.junit.jupiter.params.provider.Arguments.of("rules:\n- level: None\n  nonResourceURLs: [\"/a\"]\n  namespaces: [x]",
                        "rules[0].nonResourceURLs: Invalid value: []string{\"/a\"}: rules cannot apply to both regular resources and non-resource URLs"),
                org.junit.jupiter.params.provider.Arguments.of("omitStages: [Later]\nrules:\n- level: None",
                        "omitStages[0]: Invalid value: \"Later\": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic"),
                org.junit.jupiter.params.provider.Arguments.of("rules:\n- level: None\n  resources:\n  - resourceNames: [x]",
                        "rules[0].resources[0].resourceNames: Invalid value: []string{\"x\"}: using resourceNames requires at least one resource"));
    }

    @ParameterizedTest(name = "{1}")
    @DisplayName("a policy that is not valid is refused in kube's words")
    @org.junit.jupiter.params.provider.MethodSource("invalidPolicies")
    void invalid(String body, String error) throws IOException {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "apiVersion: audit.k8s.io/v1\nkind: Policy\n" + body + "\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Policy.load(file));
        assertEquals("loaded illegal policy with 1 rules from file " + file + ": " + error, e.getMessage());
    }

    @Test
    @DisplayName("a policy without rules is refused")
    void noRules() throws IOException {
        Path file = dir.resolve("empty.yaml");
        Files.writeString(file, "apiVersion: audit.k8s.io/v1\nkind: Policy\n");
        assertEquals("loaded illegal policy with 0 rules from file " + file,
                assertThrows(IllegalArgumentException.class, () -> Policy.load(file)).getMessage());
    }
}
