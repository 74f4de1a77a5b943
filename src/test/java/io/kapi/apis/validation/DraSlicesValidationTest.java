package io.kapi.apis.validation;

import static io.kapi.apis.validation.BuiltinValidationTest.DNS_LABEL;
import static io.kapi.apis.validation.ClusterKindsValidationTest.SUBDOMAIN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ResourceSlices (resource.k8s.io/v1), after kube's validation_resourceslice_test.go. */
class DraSlicesValidationTest {

    static final String SLICE = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: worker-1-gpu}
            spec:
              driver: gpu.example.com
              pool: {name: worker-1, generation: 1, resourceSliceCount: 1}
              nodeName: worker-1
              devices:
              - name: gpu-0
                attributes:
                  model: {string: a100}
                  gpu.example.com/cores: {int: 108}
                  driverVersion: {version: 1.2.3-rc.1+build.5}
                  healthy: {bool: true}
                capacity:
                  memory: {value: 40Gi}
              - name: gpu-1
            """;

    static final String ONE_OF = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
    static final String C_IDENTIFIER = "a valid C identifier must start with alphabetic character or '_', followed by a "
            + "string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for "
            + "validation is '[A-Za-z_][A-Za-z0-9_]*')";

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is checked with kube's field paths and messages")
    @MethodSource("creates")
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("an update keeps driver, pool name and node name")
    @MethodSource("updates")
    void updates(String name, String yaml, String old, List<String> expected) {
        assertEquals(expected, Fixtures.update(yaml, old));
    }

    static Stream<Arguments> creates() {
        String d = "spec.devices[0]";
        return Stream.of(
                Arguments.of("a valid one passes", SLICE, List.of()),
                Arguments.of("all nodes, no devices pass",
                        SLICE.replace("nodeName: worker-1", "allNodes: true").replaceAll("(?s)  devices:.*", ""), List.of()),
                Arguments.of("an empty spec",
                        SLICE.replaceAll("(?s)spec:.*", "spec: {}\n"),
                        List.of("spec.driver: Required value", "spec.driver: Invalid value: \"\": " + SUBDOMAIN,
                                "spec.pool.name: Required value",
                                "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
                                "spec: Required value: " + ONE_OF)),
                Arguments.of("a bad pool",
                        SLICE.replace("{name: worker-1, generation: 1, resourceSliceCount: 1}",
                                "{name: \"" + "x/".repeat(126) + "xy\", generation: -1, resourceSliceCount: 0}"),
                        List.of("spec.pool.name: Too long: must have at most 253 bytes",
                                "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
                                "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero")),
                Arguments.of("bad node and pool names",
                        SLICE.replace("name: worker-1,", "name: \"Worker/w\",").replace("nodeName: worker-1", "nodeName: Worker"),
                        List.of("spec.pool.name: Invalid value: \"Worker\": " + SUBDOMAIN,
                                "spec.nodeName: Invalid value: \"Worker\": " + SUBDOMAIN)),
                Arguments.of("node name and all nodes",
                        SLICE.replace("nodeName: worker-1", "nodeName: worker-1\n  allNodes: true"),
                        List.of("spec: Invalid value: \"{`nodeName`, `allNodes`}\": " + ONE_OF
                                + ", but multiple fields are set")),
                Arguments.of("an empty node name and all nodes false",
                        SLICE.replace("nodeName: worker-1", "nodeName: \"\"\n  allNodes: false"),
                        List.of("spec.nodeName: Invalid value: \"\": must be either unset or set to a non-empty string",
                                "spec.allNodes: Invalid value: false: must be either unset or set to true",
                                "spec: Required value: " + ONE_OF)),
                Arguments.of("an empty node selector",
                        SLICE.replace("nodeName: worker-1", "nodeSelector: {}"),
                        List.of("spec.nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector term",
                                "spec.nodeSelector.nodeSelectorTerms: Invalid value: []core.NodeSelectorTerm(nil): must "
                                        + "have exactly one node selector term")),
                Arguments.of("a node selector with two terms and bad requirements",
                        SLICE.replace("nodeName: worker-1", """
                                nodeSelector:
                                    nodeSelectorTerms:
                                    - matchExpressions: [{key: zone, operator: In, values: ["-1"]}]
                                    - matchFields: [{key: metadata.uid, operator: Exists}]"""),
                        List.of("spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: "
                                        + "\"-1\": a valid label must be an empty string or consist of alphanumeric "
                                        + "characters, '-', '_' or '.', and must start and end with an alphanumeric "
                                        + "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
                                        + "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                                "spec.nodeSelector.nodeSelectorTerms[1].matchFields[0].operator: Invalid value: "
                                        + "\"Exists\": not a valid selector operator",
                                "spec.nodeSelector.nodeSelectorTerms[1].matchFields[0].key: Invalid value: "
                                        + "\"metadata.uid\": not a valid field selector key",
                                "spec.nodeSelector.nodeSelectorTerms: Invalid value: []core.NodeSelectorTerm{"
                                        + "core.NodeSelectorTerm{MatchExpressions:[]core.NodeSelectorRequirement{"
                                        + "core.NodeSelectorRequirement{Key:\"zone\", Operator:\"In\", Values:[]string{\"-1\"}}}, "
                                        + "MatchFields:[]core.NodeSelectorRequirement(nil)}, core.NodeSelectorTerm{"
                                        + "MatchExpressions:[]core.NodeSelectorRequirement(nil), MatchFields:"
                                        + "[]core.NodeSelectorRequirement{core.NodeSelectorRequirement{Key:\"metadata.uid\", "
                                        + "Operator:\"Exists\", Values:[]string(nil)}}}}: must have exactly one node "
                                        + "selector term")),
                Arguments.of("a bad device name and a repeated one",
                        SLICE.replace("- name: gpu-0", "- name: GPU_0").replace("- name: gpu-1", "- name: GPU_0"),
                        List.of(d + ".name: Invalid value: \"GPU_0\": " + DNS_LABEL,
                                "spec.devices[1].name: Invalid value: \"GPU_0\": " + DNS_LABEL,
                                "spec.devices[1].name: Duplicate value: \"GPU_0\"")),
                Arguments.of("bad attributes",
                        SLICE.replace("model: {string: a100}", "\"bad-name\": {}")
                                .replace("{int: 108}", "{int: 108, bool: false}")
                                .replace("1.2.3-rc.1+build.5", "\"01.2\"")
                                .replace("healthy: {bool: true}", "\"/\": {string: \"" + "x".repeat(65) + "\"}"),
                        List.of(d + ".attributes[bad-name]: Invalid value: \"bad-name\": " + C_IDENTIFIER,
                                d + ".attributes[bad-name]: Required value: exactly one value must be specified",
                                d + ".attributes[gpu.example.com/cores]: Invalid value: resource.DeviceAttribute{"
                                        + "IntValue:(*int64)(0xc000000000), BoolValue:(*bool)(0xc000000000), "
                                        + "StringValue:(*string)(nil), VersionValue:(*string)(nil)}: exactly one value "
                                        + "must be specified",
                                d + ".attributes[driverVersion].version: Invalid value: \"01.2\": must be a string "
                                        + "compatible with semver.org spec 2.0.0",
                                d + ".attributes[/]: Required value: the domain must not be empty",
                                d + ".attributes[/]: Required value: the name must not be empty",
                                d + ".attributes[/].string: Too long: must have at most 64 bytes")),
                Arguments.of("long attribute and capacity names",
                        SLICE.replace("model:", "x".repeat(64) + "/" + "y".repeat(33) + ":")
                                .replace("memory:", "\"" + "z".repeat(33) + "\":"),
                        List.of(d + ".attributes[xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxx/"
                                        + "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy]: Too long: must have at most 63 bytes",
                                d + ".attributes[xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxx/"
                                        + "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy]: Too long: must have at most 32 bytes",
                                d + ".capacity[zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz]: Too long: must have at most 32 bytes")),
                Arguments.of("more than 32 attributes and capacities",
                        SLICE.replace("memory: {value: 40Gi}", capacities(29)),
                        List.of(d + ": Invalid value: 33: the total number of attributes and capacities must not exceed 32")),
                Arguments.of("null members read as unset",
                        SLICE.replaceAll("(?s)spec:.*", "spec: {driver: d.example.com, pool: null, nodeName: null, "
                                + "nodeSelector: null, allNodes: true, devices: [{name: d, attributes: {a: null}, "
                                + "capacity: null}]}\n"),
                        List.of("spec.pool.name: Required value",
                                "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
                                d + ".attributes[a]: Required value: exactly one value must be specified")),
                Arguments.of("129 devices",
                        SLICE.replaceAll("(?s)  devices:.*", "  devices:\n" + devices(129)),
                        List.of("spec.devices: Too many: 129: must have at most 128 items")));
    }

    private static String capacities(int n) {
        List<String> lines = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            lines.add("c" + i + ": {value: \"1\"}");
        }
        return String.join("\n      ", lines);
    }

    private static String devices(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append("  - name: d").append(i).append('\n');
        }
        return b.toString();
    }

    static Stream<Arguments> updates() {
        return Stream.of(
                Arguments.of("devices and generation may change",
                        SLICE.replace("generation: 1", "generation: 2").replace("- name: gpu-1", "- name: gpu-2"), SLICE,
                        List.of()),
                Arguments.of("driver, pool name and node name are immutable",
                        SLICE.replace("driver: gpu.example.com", "driver: tpu.example.com")
                                .replace("name: worker-1,", "name: worker-2,").replace("nodeName: worker-1", "allNodes: true"),
                        SLICE,
                        List.of("spec.pool.name: Invalid value: \"worker-2\": field is immutable",
                                "spec.driver: Invalid value: \"tpu.example.com\": field is immutable",
                                "spec.nodeName: Invalid value: null: field is immutable")));
    }
}
