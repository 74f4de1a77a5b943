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

/**
 * DeviceClasses, ResourceClaims and ResourceClaimTemplates (resource.k8s.io/v1), after kube's
 * validation_deviceclass_test.go, validation_resourceclaim_test.go and validation_resourceclaimtemplate_test.go.
 * Fixtures are as stored, defaults applied (allocationMode ExactCount, count 1).
 */
class DraClaimsValidationTest {

    static final String CLASS = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: gpu.example.com}
            spec:
              selectors:
              - cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100"'}
              config:
              - opaque: {driver: gpu.example.com, parameters: {mode: fast}}
            """;

    static final String CLAIM = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: c, namespace: default}
            spec:
              devices:
                requests:
                - name: gpu
                  exactly:
                    deviceClassName: gpu.example.com
                    allocationMode: ExactCount
                    count: 1
                    selectors:
                    - cel: {expression: 'device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0'}
                - name: nic
                  firstAvailable:
                  - {name: fast, deviceClassName: nic.example.com, allocationMode: ExactCount, count: 1}
                  - {name: slow, deviceClassName: nic.example.com, allocationMode: All}
                constraints:
                - {requests: [gpu, nic/fast], matchAttribute: example.com/numa}
                config:
                - requests: [gpu]
                  opaque: {driver: gpu.example.com, parameters: {sharing: time-slicing}}
            """;

    static final String TEMPLATE = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: t, namespace: default}
            spec:
              metadata:
                labels: {app: inference}
              spec:
                devices:
                  requests:
                  - name: gpu
                    exactly: {deviceClassName: gpu.example.com, allocationMode: ExactCount, count: 1}
            """;

    static final String REQUEST_REF = "must be the name of a request in the claim or the name of a request and a "
            + "subrequest separated by '/'";

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is checked with kube's field paths and messages")
    @MethodSource("creates")
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("an update is checked with kube's immutability rules")
    @MethodSource("updates")
    void updates(String name, String yaml, String old, List<String> expected) {
        assertEquals(expected, Fixtures.update(yaml, old));
    }

    static Stream<Arguments> creates() {
        return Stream.of(classes(), claims(), templates()).flatMap(s -> s);
    }

    private static Stream<Arguments> classes() {
        String s = "spec.selectors[0].cel";
        return Stream.of(
                Arguments.of("class: a valid one passes", CLASS, List.of()),
                Arguments.of("class: an empty spec passes", CLASS.replaceAll("(?s)spec:.*", "spec: {}\n"), List.of()),
                Arguments.of("class: a selector using kube's semver library (which Kapi's CEL lacks) passes",
                        CLASS.replaceAll("expression: '.*'", "expression: 'device.attributes[\"gpu.example.com\"]"
                                + ".driverVersion.isGreaterThan(semver(\"1.0.0\"))'"), List.of()),
                Arguments.of("class: an expression that does not compile",
                        CLASS.replaceAll("expression: '.*'", "expression: 'device.driver == 1 +'"),
                        List.of(s + ".expression: Invalid value: \"device.driver == 1 +\": compilation failed: "
                                + "ERROR: <input>:1:21: Syntax error: mismatched input '<EOF>' expecting {'[', '{', "
                                + "'(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, "
                                + "BYTES, IDENTIFIER}\n | device.driver == 1 +\n | ....................^")),
                Arguments.of("class: an expression of the wrong type",
                        CLASS.replaceAll("expression: '.*'", "expression: 'device.driver'"),
                        List.of(s + ".expression: Invalid value: \"device.driver\": must evaluate to bool or the "
                                + "unknown type, not string")),
                Arguments.of("class: an unknown variable",
                        CLASS.replaceAll("expression: '.*'", "expression: 'object.driver == \"x\"'"),
                        List.of(s + ".expression: Invalid value: \"object.driver == \\\"x\\\"\": compilation failed: "
                                + "ERROR: <input>:1:1: undeclared reference to 'object' (in container '')\n"
                                + " | object.driver == \"x\"\n | ^")),
                Arguments.of("class: an expression over 10 KiB is not compiled",
                        CLASS.replaceAll("expression: '.*'", "expression: '" + "x".repeat(10 * 1024 + 1) + "'"),
                        List.of(s + ".expression: Too long: must have at most 10240 bytes")),
                Arguments.of("class: a selector without cel",
                        CLASS.replaceAll("- cel: \\{.*\\}", "- {}"), List.of("spec.selectors[0].cel: Required value")),
                Arguments.of("class: a configuration without opaque",
                        CLASS.replaceAll("- opaque: .*", "- {}"), List.of("spec.config[0].opaque: Required value")),
                Arguments.of("class: opaque configuration without driver and parameters",
                        CLASS.replaceAll("- opaque: .*", "- opaque: {}"),
                        List.of("spec.config[0].opaque.driver: Required value",
                                "spec.config[0].opaque.driver: Invalid value: \"\": " + SUBDOMAIN,
                                "spec.config[0].opaque.parameters: Required value")),
                Arguments.of("class: parameters not an object",
                        CLASS.replace("{mode: fast}", "[1, 2]"),
                        List.of("spec.config[0].opaque.parameters: Invalid value: \"<value omitted>\": parameters must "
                                + "be a valid JSON object")),
                Arguments.of("class: parameters over 10 KiB",
                        CLASS.replace("{mode: fast}", "{mode: " + "x".repeat(10 * 1024) + "}"),
                        List.of("spec.config[0].opaque.parameters: Too long: must have at most 10240 bytes")),
                Arguments.of("class: 33 selectors",
                        CLASS.replaceAll("(?s)  selectors:.*?\n  config", "  selectors:\n"
                                + "  - cel: {expression: 'true'}\n".repeat(33) + "  config"),
                        List.of("spec.selectors: Too many: 33: must have at most 32 items")));
    }

    private static Stream<Arguments> claims() {
        String r = "spec.devices.requests[0]";
        return Stream.of(
                Arguments.of("claim: a valid one passes", CLAIM, List.of()),
                Arguments.of("claim: no requests pass", CLAIM.replaceAll("(?s)  devices:.*", "  devices: {}\n"), List.of()),
                Arguments.of("claim: a bad request name and no device class",
                        CLAIM.replace("name: gpu\n", "name: Bad_Name\n").replace("deviceClassName: gpu.example.com", "deviceClassName: \"\""),
                        List.of(r + ".name: Invalid value: \"Bad_Name\": " + DNS_LABEL,
                                r + ".exactly.deviceClassName: Required value",
                                "spec.devices.constraints[0].requests[0]: Invalid value: \"gpu\": " + REQUEST_REF,
                                "spec.devices.config[0].requests[0]: Invalid value: \"gpu\": " + REQUEST_REF)),
                Arguments.of("claim: neither exactly nor firstAvailable",
                        CLAIM.replaceAll("(?s)  - name: gpu\n.*?  - name: nic", "  - name: gpu\n    - name: nic"),
                        List.of(r + ": Required value: exactly one of `exactly` or `firstAvailable` is required")),
                Arguments.of("claim: both exactly and firstAvailable",
                        CLAIM.replace("  - name: gpu\n", "  - name: gpu\n      firstAvailable: [{name: a, deviceClassName: c, "
                                + "allocationMode: All}]\n"),
                        List.of(r + ": Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, "
                                + "but multiple fields are set")),
                Arguments.of("claim: allocation modes and counts",
                        CLAIM.replace("count: 1\n        selectors", "count: 0\n        selectors")
                                .replace("allocationMode: All}", "allocationMode: All, count: 2}")
                                .replace("allocationMode: ExactCount, count: 1}", "allocationMode: Some}"),
                        List.of(r + ".exactly.count: Invalid value: 0: must be greater than zero",
                                "spec.devices.requests[1].firstAvailable[0].allocationMode: Unsupported value: \"Some\": "
                                        + "supported values: \"All\", \"ExactCount\"",
                                "spec.devices.requests[1].firstAvailable[1].count: Invalid value: 2: must not be "
                                        + "specified when allocationMode is 'All'")),
                Arguments.of("claim: a bad device class name and a subrequest name repeated",
                        CLAIM.replace("name: slow, deviceClassName: nic.example.com", "name: fast, deviceClassName: Nic"),
                        List.of("spec.devices.requests[1].firstAvailable[1].deviceClassName: Invalid value: \"Nic\": "
                                        + SUBDOMAIN,
                                "spec.devices.requests[1].firstAvailable[1].name: Duplicate value: \"fast\"")),
                Arguments.of("claim: a request name repeated",
                        CLAIM.replace("name: nic\n", "name: gpu\n").replace("nic/fast", "gpu/fast"),
                        List.of("spec.devices.requests[1].name: Duplicate value: \"gpu\"")),
                Arguments.of("claim: a selector that does not compile",
                        CLAIM.replaceAll("expression: '.*'", "expression: 'device.driver =='"),
                        List.of(r + ".exactly.selectors[0].cel.expression: Invalid value: \"device.driver ==\": "
                                + "compilation failed: ERROR: <input>:1:17: Syntax error: mismatched input '<EOF>' "
                                + "expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, "
                                + "NUM_UINT, STRING, BYTES, IDENTIFIER}\n | device.driver ==\n | ................^")),
                Arguments.of("claim: constraints",
                        CLAIM.replace("{requests: [gpu, nic/fast], matchAttribute: example.com/numa}",
                                "{requests: [gpu, gpu, nic/none, a/b/c], matchAttribute: numa}\n    - {}"),
                        List.of("spec.devices.constraints[0].requests[2]: Invalid value: \"nic/none\": " + REQUEST_REF,
                                "spec.devices.constraints[0].requests[3]: Invalid value: \"a/b/c\": " + REQUEST_REF,
                                "spec.devices.constraints[0].requests[1]: Duplicate value: \"gpu\"",
                                "spec.devices.constraints[0].matchAttribute: Invalid value: \"numa\": must include a domain",
                                "spec.devices.constraints[1].matchAttribute: Required value")),
                Arguments.of("claim: a match attribute with a bad identifier and an empty one",
                        CLAIM.replace("example.com/numa", "example.com/1numa}\n    - {matchAttribute: \"\""),
                        List.of("spec.devices.constraints[0].matchAttribute: Invalid value: \"1numa\": a valid "
                                        + "C identifier must start with alphabetic character or '_', followed by a string "
                                        + "of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', "
                                        + "regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
                                "spec.devices.constraints[1].matchAttribute: Required value: name required")),
                Arguments.of("claim: a configuration for an unknown request without opaque",
                        CLAIM.replaceAll("(?s)    config:.*", "    config:\n    - requests: [nic, tpu]\n"),
                        List.of("spec.devices.config[0].requests[1]: Invalid value: \"tpu\": " + REQUEST_REF,
                                "spec.devices.config[0].opaque: Required value")),
                Arguments.of("claim: null members read as unset",
                        CLAIM.replaceAll("(?s)  devices:.*", "  devices: {requests: [{name: a, exactly: null, "
                                + "firstAvailable: null}], constraints: [{matchAttribute: null, requests: null}], "
                                + "config: [{opaque: null}]}\n"),
                        List.of(r + ": Required value: exactly one of `exactly` or `firstAvailable` is required",
                                "spec.devices.constraints[0].matchAttribute: Required value",
                                "spec.devices.config[0].opaque: Required value")),
                Arguments.of("claim: 33 requests",
                        CLAIM.replaceAll("(?s)    requests:.*", "    requests:\n" + requests(33)),
                        List.of("spec.devices.requests: Too many: 33: must have at most 32 items")));
    }

    private static String requests(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append("    - {name: r").append(i).append(", exactly: {deviceClassName: c, allocationMode: All}}\n");
        }
        return b.toString();
    }

    private static Stream<Arguments> templates() {
        return Stream.of(
                Arguments.of("template: a valid one passes", TEMPLATE, List.of()),
                Arguments.of("template: claim errors under spec.spec",
                        TEMPLATE.replace("deviceClassName: gpu.example.com", "deviceClassName: \"\""),
                        List.of("spec.spec.devices.requests[0].exactly.deviceClassName: Required value")),
                Arguments.of("template: metadata other than labels and annotations",
                        TEMPLATE.replace("labels: {app: inference}", "name: x\n    finalizers: [a/b]\n"
                                + "    labels: {app: -bad}\n    annotations: {\"-a\": b}"),
                        List.of("spec.metadata.annotations: Invalid value: \"-a\": "
                                        + ClusterKindsValidationTest.QUALIFIED,
                                "spec.metadata.labels: Invalid value: \"-bad\": a valid label must be an empty string or "
                                        + "consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                                        + "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
                                        + "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                                "spec.metadata.name: Forbidden: cannot be set for a resource claim template",
                                "spec.metadata.finalizers: Forbidden: cannot be set for a resource claim template")));
    }

    static Stream<Arguments> updates() {
        return Stream.of(
                Arguments.of("class: selectors and configuration may change", CLASS.replace("a100", "h100"), CLASS, List.of()),
                Arguments.of("class: a changed selector is compiled again",
                        CLASS.replaceAll("expression: '.*'", "expression: 'device.driver == 1 +'"), CLASS,
                        List.of("spec.selectors[0].cel.expression: Invalid value: \"device.driver == 1 +\": compilation "
                                + "failed: ERROR: <input>:1:21: Syntax error: mismatched input '<EOF>' expecting {'[', "
                                + "'{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, "
                                + "STRING, BYTES, IDENTIFIER}\n | device.driver == 1 +\n | ....................^")),
                Arguments.of("claim: an unchanged spec passes", CLAIM.replace("name: c,", "name: c, labels: {a: b},"),
                        CLAIM, List.of()),
                Arguments.of("claim: the spec is immutable", CLAIM.replace("count: 1\n        selectors", "count: 2\n        selectors"),
                        CLAIM, List.of("spec: Invalid value: resource.ResourceClaimSpec{...}: field is immutable")),
                Arguments.of("claim: an invalid changed spec reports both",
                        CLAIM.replace("count: 1\n        selectors", "count: 0\n        selectors"), CLAIM,
                        List.of("spec: Invalid value: resource.ResourceClaimSpec{...}: field is immutable",
                                "spec.devices.requests[0].exactly.count: Invalid value: 0: must be greater than zero")),
                Arguments.of("template: the spec is immutable", TEMPLATE.replace("app: inference", "app: training"), TEMPLATE,
                        List.of("spec: Invalid value: resource.ResourceClaimTemplateSpec{...}: field is immutable")));
    }
}
