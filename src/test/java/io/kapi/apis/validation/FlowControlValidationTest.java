package io.kapi.apis.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinKinds;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** FlowSchemas and PriorityLevelConfigurations (cases after kube's flowcontrol validation_test.go). */
class FlowControlValidationTest {

    static final String FS = """
            apiVersion: flowcontrol.apiserver.k8s.io/v1
            kind: FlowSchema
            metadata: {name: system-foo}
            spec:
              matchingPrecedence: 50
              priorityLevelConfiguration: {name: system-bar}
              distinguisherMethod: {type: ByUser}
              rules:
              - subjects:
                - {kind: User, user: {name: noxu}}
                - {kind: ServiceAccount, serviceAccount: {name: '*', namespace: kube-system}}
                resourceRules: [{verbs: [get, list], apiGroups: [apps], resources: [deployments], namespaces: [default]}]
                nonResourceRules: [{verbs: [get], nonResourceURLs: [/healthz, /apis/*]}]
            """;

    static final String PL = """
            apiVersion: flowcontrol.apiserver.k8s.io/v1
            kind: PriorityLevelConfiguration
            metadata: {name: system-bar}
            spec:
              type: Limited
              limited:
                nominalConcurrencyShares: 30
                lendablePercent: 10
                limitResponse: {type: Queue, queuing: {queues: 64, handSize: 8, queueLengthLimit: 50}}
            """;

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is checked with kube's field paths and messages")
    @MethodSource("creates")
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    static Stream<Arguments> creates() {
        return Stream.of(flowSchemas(), priorityLevels()).flatMap(s -> s);
    }

    private static Stream<Arguments> flowSchemas() {
        String r = "spec.rules[0].";
        return Stream.of(
                Arguments.of("fs: a valid one passes", FS, List.of()),
                Arguments.of("fs: precedence 1 is exempt's", FS.replace("matchingPrecedence: 50", "matchingPrecedence: 1"),
                        List.of("spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1")),
                Arguments.of("fs: precedence too big", FS.replace("matchingPrecedence: 50", "matchingPrecedence: 10001"),
                        List.of("spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000")),
                Arguments.of("fs: precedence not positive", FS.replace("matchingPrecedence: 50", "matchingPrecedence: -1"),
                        List.of("spec.matchingPrecedence: Invalid value: -1: must be a positive value")),
                Arguments.of("fs: an unknown distinguisher", FS.replace("type: ByUser", "type: ByFoo"),
                        List.of("spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:\"ByFoo\"}: "
                                + "supported values: \"ByNamespace\", \"ByUser\"")),
                Arguments.of("fs: no priority level", FS.replace("{name: system-bar}", "{}"),
                        List.of("spec.priorityLevelConfiguration.name: Required value: must reference a priority level")),
                Arguments.of("fs: subjects and rules are required", FS.replaceAll("(?s)  rules:.*", "  rules: [{}]\n"),
                        List.of(r + "subjects: Required value: subjects must contain at least one value",
                                "spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty")),
                Arguments.of("fs: subject members", FS.replace("{kind: User, user: {name: noxu}}", "{kind: User, group: {name: g}}")
                                .replace("{kind: ServiceAccount, serviceAccount: {name: '*', namespace: kube-system}}",
                                        "{kind: ServiceAccount, serviceAccount: {name: x}}"),
                        List.of(r + "subjects[0].user: Required value: user is required when subject kind is 'User'",
                                r + "subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
                                r + "subjects[1].serviceAccount.namespace: Required value: must specify namespace for service account")),
                Arguments.of("fs: an unknown subject kind", FS.replace("kind: User,", "kind: Robot,"),
                        List.of(r + "subjects[0].kind: Unsupported value: \"Robot\": supported values: \"Group\", \"ServiceAccount\", \"User\"")),
                Arguments.of("fs: resource rule wildcards", FS.replace("verbs: [get, list], apiGroups: [apps], resources: [deployments], namespaces: [default]",
                                "verbs: ['*', get], apiGroups: ['*', apps], resources: ['*', pods], namespaces: ['*', default]"),
                        List.of(r + "resourceRules[0].verbs: Invalid value: []string{\"*\", \"get\"}: if '*' is present, must not specify other verbs",
                                r + "resourceRules[0].apiGroups: Invalid value: []string{\"*\", \"apps\"}: if '*' is present, must not specify other api groups",
                                r + "resourceRules[0].resources: Invalid value: []string{\"*\", \"pods\"}: if '*' is present, must not specify other resources",
                                r + "resourceRules[0].namespaces: Invalid value: []string{\"*\", \"default\"}: if '*' is present, must not specify other namespaces")),
                Arguments.of("fs: resource rule requirements", FS.replace("{verbs: [get, list], apiGroups: [apps], resources: [deployments], namespaces: [default]}",
                                "{verbs: [feed], namespaces: [Foo]}"),
                        List.of(r + "resourceRules[0].verbs: Unsupported value: []string{\"feed\"}: supported values: \"create\", \"delete\", "
                                        + "\"deletecollection\", \"get\", \"list\", \"patch\", \"proxy\", \"update\", \"watch\"",
                                r + "resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group",
                                r + "resourceRules[0].resources: Required value: resource rules must supply at least one resource",
                                r + "resourceRules[0].namespaces[0]: Invalid value: \"Foo\": each member of this list must be '*' or a DNS-1123 label; "
                                        + BuiltinValidationTest.DNS_LABEL)),
                Arguments.of("fs: a namespaced rule needs namespaces", FS.replace(", namespaces: [default]", ""),
                        List.of(r + "resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace")),
                Arguments.of("fs: a cluster-scoped rule needs none", FS.replace("namespaces: [default]", "clusterScope: true"), List.of()),
                Arguments.of("fs: non-resource paths", FS.replace("[/healthz, /apis/*]", "[healthz, '/a b', //x, /a*, /*/b/*]"),
                        List.of(r + "nonResourceRules[0].nonResourceURLs[0]: Invalid value: \"healthz\": must start with slash",
                                r + "nonResourceRules[0].nonResourceURLs[1]: Invalid value: \"/a b\": must not contain white-space",
                                r + "nonResourceRules[0].nonResourceURLs[2]: Invalid value: \"//x\": must not contain double slash",
                                r + "nonResourceRules[0].nonResourceURLs[3]: Invalid value: \"/a*\": wildcard can only do suffix matching",
                                r + "nonResourceRules[0].nonResourceURLs[4]: Invalid value: \"/*/b/*\": wildcard can only do suffix matching")),
                Arguments.of("fs: the mandatory exempt schema is fixed", FS.replace("name: system-foo", "name: exempt"),
                        List.of("spec: Invalid value: flowcontrol.FlowSchemaSpec{...}: spec of 'exempt' must equal the fixed value")),
                Arguments.of("fs: duplicate condition types", FS + "status:\n  conditions: [{type: Dangling}, {type: Dangling}, {status: 'True'}]\n",
                        List.of("status.conditions[1].type: Duplicate value: \"Dangling\"",
                                "status.conditions[2].type: Required value: must not be empty")));
    }

    private static Stream<Arguments> priorityLevels() {
        String q = "spec.limited.limitResponse.queuing.";
        return Stream.of(
                Arguments.of("pl: a valid one passes", PL, List.of()),
                Arguments.of("pl: a Reject one passes", PL.replaceAll("limitResponse: .*", "limitResponse: {type: Reject}"), List.of()),
                Arguments.of("pl: Exempt is exempt's", PL.replaceAll("(?s)  type: Limited.*", "  type: Exempt\n"),
                        List.of("spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'")),
                Arguments.of("pl: an unknown type", PL.replace("type: Limited", "type: Foo"),
                        List.of("spec.type: Unsupported value: \"Foo\": supported values: \"Exempt\", \"Limited\"")),
                Arguments.of("pl: Limited needs limited", PL.replaceAll("(?s)  limited:.*", "  exempt: {}\n"),
                        List.of("spec.exempt: Forbidden: must be nil if the type is Limited",
                                "spec.limited: Required value: must not be empty when type is Limited")),
                Arguments.of("pl: bad numbers", PL.replace("nominalConcurrencyShares: 30", "nominalConcurrencyShares: -1")
                                .replace("lendablePercent: 10", "lendablePercent: 101\n    borrowingLimitPercent: -1"),
                        List.of("spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
                                "spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
                                "spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer")),
                Arguments.of("pl: Reject with queuing", PL.replace("type: Queue", "type: Reject"),
                        List.of("spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited")),
                Arguments.of("pl: Queue without queuing", PL.replaceAll("limitResponse: .*", "limitResponse: {type: Queue}"),
                        List.of("spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited")),
                Arguments.of("pl: no limit response", PL.replaceAll("limitResponse: .*", "limitResponse: {}"),
                        List.of("spec.limited.limitResponse.type: Unsupported value: \"\": supported values: \"Queue\", \"Reject\"")),
                Arguments.of("pl: queuing not positive", PL.replace("{queues: 64, handSize: 8, queueLengthLimit: 50}",
                                "{queues: 0, handSize: 0, queueLengthLimit: 0}"),
                        List.of(q + "queueLengthLimit: Invalid value: 0: must be positive", q + "queues: Invalid value: 0: must be positive",
                                q + "handSize: Invalid value: 0: must be positive")),
                Arguments.of("pl: too many queues", PL.replace("queues: 64, handSize: 8", "queues: 10000001, handSize: 1"),
                        List.of(q + "queues: Invalid value: 10000001: must not be greater than 10000000")),
                Arguments.of("pl: hand bigger than deck", PL.replace("handSize: 8", "handSize: 65"),
                        List.of(q + "handSize: Invalid value: 65: should not be greater than queues (64)")),
                Arguments.of("pl: 60 bits of entropy pass", PL.replace("handSize: 8", "handSize: 10"), List.of()),
                Arguments.of("pl: too much entropy", PL.replace("handSize: 8", "handSize: 11"),
                        List.of(q + "handSize: Invalid value: 11: required entropy bits of deckSize 64 and handSize 11 should not be greater than 60")),
                Arguments.of("pl: exempt may change its exempt member", """
                        apiVersion: flowcontrol.apiserver.k8s.io/v1
                        kind: PriorityLevelConfiguration
                        metadata: {name: exempt}
                        spec: {type: Exempt, exempt: {nominalConcurrencyShares: 5, lendablePercent: 10}}
                        """, List.of()),
                Arguments.of("pl: exempt's bad exempt member", """
                        apiVersion: flowcontrol.apiserver.k8s.io/v1
                        kind: PriorityLevelConfiguration
                        metadata: {name: exempt}
                        spec: {type: Exempt, exempt: {nominalConcurrencyShares: -1, lendablePercent: 101}}
                        """, List.of("spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
                        "spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive")),
                Arguments.of("pl: exempt repurposed", PL.replace("name: system-bar", "name: exempt"),
                        List.of("spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'",
                                "spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{...}: spec of 'exempt' except "
                                        + "the 'spec.exempt' field must equal the fixed value")),
                Arguments.of("pl: catch-all is fixed", PL.replace("name: system-bar", "name: catch-all"),
                        List.of("spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{...}: spec of 'catch-all' "
                                + "must equal the fixed value")));
    }

    @Test
    @DisplayName("every FlowSchema and PriorityLevelConfiguration the server bootstraps passes, defaulted as stored")
    void bootstrapObjectsPass() throws IOException {
        JsonNode data;
        try (InputStream in = getClass().getResourceAsStream("/apis/bootstrap/flowcontrol.yaml")) {
            data = Json.yaml().readTree(in);
        }
        int checked = 0;
        for (String list : List.of("mandatoryPriorityLevelConfigurations", "suggestedPriorityLevelConfigurations",
                "mandatoryFlowSchemas", "suggestedFlowSchemas")) {
            String kind = list.endsWith("FlowSchemas") ? "FlowSchema" : "PriorityLevelConfiguration";
            for (JsonNode item : data.path(list)) {
                ObjectNode o = Json.object();
                o.put("apiVersion", "flowcontrol.apiserver.k8s.io/v1").put("kind", kind);
                o.putObject("metadata").put("name", item.path("name").asText())
                        .putObject("annotations").put("apf.kubernetes.io/autoupdate-spec", "true");
                o.set("spec", item.get("spec").deepCopy());
                BuiltinKinds.of(Fixtures.gvk(o)).defaults().apply(o);
                assertEquals(List.of(), Fixtures.strings(BuiltinKinds.of(Fixtures.gvk(o)).validation().validate(o)),
                        kind + " " + item.path("name").asText());
                assertEquals(List.of(), Fixtures.strings(BuiltinKinds.of(Fixtures.gvk(o)).validation().validateUpdate(o, o.deepCopy())),
                        kind + " " + item.path("name").asText());
                checked++;
            }
        }
        assertEquals(true, checked >= 10, "bootstrap objects checked: " + checked);
    }
}
