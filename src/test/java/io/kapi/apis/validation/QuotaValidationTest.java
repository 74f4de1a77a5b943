package io.kapi.apis.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ResourceQuotas (cases after kube's validation_test.go TestValidateResourceQuota). */
class QuotaValidationTest {

    static final String QUOTA = """
            apiVersion: v1
            kind: ResourceQuota
            metadata: {name: q, namespace: default}
            spec:
              hard:
                cpu: "100"
                memory: 10000Mi
                pods: "10"
                services: "0"
                requests.storage: 10Gi
                count/deployments.apps: "5"
                requests.nvidia.com/gpu: "4"
                requests.hugepages-2Mi: 8Mi
            """;

    static final String SCOPED = """
            apiVersion: v1
            kind: ResourceQuota
            metadata: {name: q, namespace: default}
            spec:
              hard: {pods: "10"}
              scopes: [BestEffort]
            """;

    static final String SELECTED = """
            apiVersion: v1
            kind: ResourceQuota
            metadata: {name: q, namespace: default}
            spec:
              hard: {pods: "10", cpu: "4"}
              scopeSelector:
                matchExpressions:
                - {scopeName: PriorityClass, operator: In, values: [high]}
            """;

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is checked with kube's field paths and messages")
    @MethodSource("creates")
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("an update may not change the scopes")
    @MethodSource("updates")
    void updates(String name, String yaml, String old, List<String> expected) {
        assertEquals(expected, Fixtures.update(yaml, old));
    }

    static Stream<Arguments> creates() {
        return Stream.of(
                Arguments.of("valid limits pass", QUOTA, List.of()),
                Arguments.of("a scoped quota passes", SCOPED, List.of()),
                Arguments.of("a scope selector passes", SELECTED, List.of()),
                Arguments.of("a negative amount", QUOTA.replace("pods: \"10\"", "pods: \"-1\""),
                        List.of("spec.hard[pods]: Invalid value: \"-1\": must be greater than or equal to 0")),
                Arguments.of("a fractional count", QUOTA.replace("pods: \"10\"", "pods: 1500m"),
                        List.of("spec.hard[pods]: Invalid value: 1500m: must be an integer")),
                Arguments.of("an unknown resource without a domain", QUOTA.replace("cpu: \"100\"", "foo: \"1\""),
                        List.of("spec.hard[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified",
                                "spec.hard[foo]: Invalid value: \"foo\": must be a standard resource for quota")),
                Arguments.of("a resource name that is not a qualified name", QUOTA.replace("cpu: \"100\"", "a/b/c: \"1\""),
                        List.of("spec.hard[a/b/c]: Invalid value: \"a/b/c\": a qualified name must consist of "
                                + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                                + "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                                + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and "
                                + "'/' (e.g. 'example.com/MyName')")),
                Arguments.of("conflicting scopes", SCOPED.replace("[BestEffort]", "[BestEffort, NotBestEffort]"),
                        List.of("spec.scopes: Invalid value: []core.ResourceQuotaScope{\"BestEffort\", \"NotBestEffort\"}: "
                                + "conflicting scopes")),
                Arguments.of("an unknown scope", SCOPED.replace("[BestEffort]", "[Sometimes]"),
                        List.of("spec.scopes: Invalid value: []core.ResourceQuotaScope{\"Sometimes\"}: unsupported scope")),
                Arguments.of("a scope that does not apply to a limited resource",
                        SCOPED.replace("{pods: \"10\"}", "{pods: \"10\", cpu: \"1\"}"),
                        List.of("spec.scopes: Invalid value: []core.ResourceQuotaScope{\"BestEffort\"}: "
                                + "unsupported scope applied to resource")),
                Arguments.of("a selector's In without values",
                        SELECTED.replace("values: [high]", "values: []"),
                        List.of("spec.scopeSelector.matchExpressions.values: Required value: must be at least one value "
                                + "when `operator` is 'In' or 'NotIn' for scope selector")),
                Arguments.of("a selector's Exists with values",
                        SELECTED.replace("operator: In", "operator: Exists"),
                        List.of("spec.scopeSelector.matchExpressions.values: Invalid value: []string{\"high\"}: must be "
                                + "no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector")),
                Arguments.of("a selector's BestEffort that is not Exists",
                        SELECTED.replace("{pods: \"10\", cpu: \"4\"}", "{pods: \"10\"}")
                                .replace("scopeName: PriorityClass", "scopeName: BestEffort"),
                        List.of("spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exist' when "
                                + "scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, "
                                + "ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or "
                                + "ResourceQuotaScopeCrossNamespacePodAffinity")),
                Arguments.of("conflicting selector scopes, reported with spec.scopes as the value",
                        SELECTED.replace("{pods: \"10\", cpu: \"4\"}", "{pods: \"10\"}")
                                .replace("- {scopeName: PriorityClass, operator: In, values: [high]}",
                                        "- {scopeName: Terminating, operator: Exists}\n"
                                                + "    - {scopeName: NotTerminating, operator: Exists}"),
                        List.of("spec.scopeSelector.matchExpressions: Invalid value: []core.ResourceQuotaScope(nil): "
                                + "conflicting scopes")),
                Arguments.of("a selector's unknown operator", SELECTED.replace("operator: In", "operator: Near"),
                        List.of("spec.scopeSelector.matchExpressions.operator: Invalid value: \"Near\": not a valid "
                                + "selector operator")));
    }

    static Stream<Arguments> updates() {
        return Stream.of(
                Arguments.of("new limits pass", SCOPED.replace("\"10\"", "\"20\""), SCOPED, List.of()),
                Arguments.of("changed scopes", SCOPED.replace("[BestEffort]", "[NotBestEffort]"), SCOPED,
                        List.of("spec.scopes: Invalid value: []core.ResourceQuotaScope{\"NotBestEffort\"}: field is immutable")));
    }
}
