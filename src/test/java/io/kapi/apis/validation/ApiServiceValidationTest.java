package io.kapi.apis.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** APIServices (cases after kube-aggregator's validation_test.go). */
class ApiServiceValidationTest {

    static final String REMOTE = """
            apiVersion: apiregistration.k8s.io/v1
            kind: APIService
            metadata: {name: v1beta1.metrics.k8s.io}
            spec:
              group: metrics.k8s.io
              version: v1beta1
              groupPriorityMinimum: 100
              versionPriority: 100
              caBundle: "LS0tLS1CRUdJTg=="
              service: {namespace: kube-system, name: metrics-server, port: 443}
            """;

    static final String LOCAL = """
            apiVersion: apiregistration.k8s.io/v1
            kind: APIService
            metadata: {name: v1.apps}
            spec: {group: apps, version: v1, groupPriorityMinimum: 17800, versionPriority: 15}
            """;

    static final String LEGACY = """
            apiVersion: apiregistration.k8s.io/v1
            kind: APIService
            metadata: {name: v1.}
            spec: {version: v1, groupPriorityMinimum: 18000, versionPriority: 1}
            """;

    @ParameterizedTest(name = "{0}")
    @DisplayName("an APIService is checked with kube-aggregator's field paths and messages")
    @MethodSource("cases")
    void validates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
        assertEquals(expected, Fixtures.update(yaml, REMOTE.equals(yaml) ? LOCAL : REMOTE));
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("a Service-backed one passes", REMOTE, List.of()),
                Arguments.of("a local one passes", LOCAL, List.of()),
                Arguments.of("the legacy v1. passes", LEGACY, List.of()),
                Arguments.of("a name that is not version.group",
                        LOCAL.replace("name: v1.apps", "name: v1.other"),
                        List.of("metadata.name: Invalid value: \"v1.other\": must be `spec.version+\".\"+spec.group`: "
                                + "\"v1.apps\"")),
                Arguments.of("an empty group with another version than v1",
                        LEGACY.replace("name: v1.", "name: v2.").replace("version: v1", "version: v2"),
                        List.of("spec.group: Required value: only v1 may have an empty group and it better be legacy kube")),
                Arguments.of("priorities out of range",
                        LOCAL.replace("17800", "0").replace("versionPriority: 15", "versionPriority: 1001"),
                        List.of("spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
                                "spec.versionPriority: Invalid value: 1001: must be positive and less than 1000")),
                Arguments.of("a version that is not a DNS-1035 label",
                        LOCAL.replace("name: v1.apps", "name: 1v.apps").replace("version: v1", "version: 1v"),
                        List.of("spec.version: Invalid value: \"1v\": a DNS-1035 label must consist of lower case "
                                + "alphanumeric characters or '-', start with an alphabetic character, and end with an "
                                + "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
                                + "'[a-z]([-a-z0-9]*[a-z0-9])?')")),
                Arguments.of("a local one with a caBundle and insecureSkipTLSVerify",
                        LOCAL.replace("versionPriority: 15}", "versionPriority: 15, caBundle: \"LS0tLS1CRUdJTg==\", "
                                + "insecureSkipTLSVerify: true}"),
                        List.of("spec.caBundle: Invalid value: \"10 bytes\": local APIServices may not have a caBundle",
                                "spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have "
                                + "insecureSkipTLSVerify")),
                Arguments.of("a Service without namespace and name",
                        REMOTE.replace("{namespace: kube-system, name: metrics-server, port: 443}", "{port: 443}"),
                        List.of("spec.service.namespace: Required value", "spec.service.name: Required value")),
                Arguments.of("insecureSkipTLSVerify with a caBundle",
                        REMOTE.replace("  service:", "  insecureSkipTLSVerify: true\n  service:"),
                        List.of("spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present")));
    }
}
