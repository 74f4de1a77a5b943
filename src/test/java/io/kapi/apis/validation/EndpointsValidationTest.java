package io.kapi.apis.validation;

import static io.kapi.apis.validation.BuiltinValidationTest.DNS_LABEL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Endpoints and EndpointSlices: kube's paths and messages (cases after kube's validation_test.go files). */
class EndpointsValidationTest {

    static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    static final String QUALIFIED = "name part must consist of alphanumeric characters, '-', '_' or '.', and must "
            + "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
            + "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    static final String LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, "
            + "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
            + "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    static final String LINK_LOCAL = "may not be in the link-local range (169.254.0.0/16, fe80::/10)";
    static final String MULTICAST = "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)";

    static final String ENDPOINTS = """
            apiVersion: v1
            kind: Endpoints
            metadata: {name: web, namespace: default}
            subsets:
            - addresses: [{ip: 10.1.2.3, hostname: web-0, nodeName: node-1.example.com}]
              notReadyAddresses: [{ip: "2001:db8::1"}, {ip: 010.001.002.004}]
              ports: [{name: http, port: 80, protocol: TCP}, {name: dns, port: 53, protocol: UDP, appProtocol: kubernetes.io/h2c}]
            """;

    static final String SLICE = """
            apiVersion: discovery.k8s.io/v1
            kind: EndpointSlice
            metadata: {name: web-abc, namespace: default}
            addressType: IPv4
            ports: [{name: http, port: 80, protocol: TCP, appProtocol: https}, {name: "", port: 81, protocol: SCTP}]
            endpoints:
            - addresses: [10.1.2.3]
              conditions: {ready: true, serving: true, terminating: false}
              hostname: valid-123
              nodeName: valid-node-name
              zone: zone-a
              deprecatedTopology: {topology.kubernetes.io/region: r1}
              hints: {forZones: [{name: zone-a}], forNodes: [{name: valid-node-name}]}
            """;

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is refused with kube's field paths and messages")
    @MethodSource({"endpoints", "slices"})
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    static Stream<Arguments> endpoints() {
        String ep = "apiVersion: v1\nkind: Endpoints\nmetadata: {name: e, namespace: default}\nsubsets:\n";
        return Stream.of(
                Arguments.of("endpoints: a valid object passes", ENDPOINTS, List.of()),
                Arguments.of("endpoints: no subsets, or an empty list, pass",
                        ep.replace("subsets:\n", "subsets: []\n"), List.of()),
                Arguments.of("endpoints: headless, a subset without ports passes",
                        ep + "- addresses: [{ip: 10.0.0.1}]\n", List.of()),
                Arguments.of("endpoints: a subset needs addresses or notReadyAddresses",
                        ep + "- ports: [{port: 80, protocol: TCP}]\n",
                        List.of("subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`")),
                Arguments.of("endpoints: an IP that is none is reported by both IP checks",
                        ep + "- addresses: [{ip: foo}]\n  notReadyAddresses: [{}]\n",
                        List.of("subsets[0].addresses[0].ip: Invalid value: \"foo\": must be a valid IP address, "
                                        + "(e.g. 10.9.8.7 or 2001:db8::ffff)",
                                "subsets[0].addresses[0].ip: Invalid value: \"foo\": must be a valid IP address",
                                "subsets[0].notReadyAddresses[0].ip: Invalid value: \"\": must be a valid IP address, "
                                        + "(e.g. 10.9.8.7 or 2001:db8::ffff)",
                                "subsets[0].notReadyAddresses[0].ip: Invalid value: \"\": must be a valid IP address")),
                Arguments.of("endpoints: special IPv4 addresses",
                        ep + "- addresses: [{ip: 0.0.0.0}, {ip: 127.0.0.1}, {ip: 169.254.169.254}, {ip: 224.0.0.251},"
                                + " {ip: 224.0.1.1}]\n",
                        List.of("subsets[0].addresses[0].ip: Invalid value: \"0.0.0.0\": may not be unspecified (0.0.0.0)",
                                "subsets[0].addresses[2].ip: Invalid value: \"169.254.169.254\": " + LINK_LOCAL,
                                "subsets[0].addresses[3].ip: Invalid value: \"224.0.0.251\": " + MULTICAST)),
                Arguments.of("endpoints: special IPv6 addresses, an IPv4-mapped one as its IPv4 address",
                        ep + "- addresses: [{ip: \"::\"}, {ip: \"::1\"}, {ip: \"fe80::1\"}, {ip: \"ff02::fb\"},"
                                + " {ip: \"::ffff:169.254.0.2\"}, {ip: \"fd00::1\"}]\n",
                        List.of("subsets[0].addresses[0].ip: Invalid value: \"::\": may not be unspecified (::)",
                                "subsets[0].addresses[2].ip: Invalid value: \"fe80::1\": " + LINK_LOCAL,
                                "subsets[0].addresses[3].ip: Invalid value: \"ff02::fb\": " + MULTICAST,
                                "subsets[0].addresses[4].ip: Invalid value: \"::ffff:169.254.0.2\": " + LINK_LOCAL)),
                Arguments.of("endpoints: hostname a DNS label, nodeName a DNS subdomain",
                        ep + "- addresses: [{ip: 10.0.0.1, hostname: a.b, nodeName: Node_1}, {ip: 10.0.0.2, nodeName: \"\"}]\n",
                        List.of("subsets[0].addresses[0].hostname: Invalid value: \"a.b\": must not contain dots",
                                "subsets[0].addresses[0].nodeName: Invalid value: \"Node_1\": " + SUBDOMAIN,
                                "subsets[0].addresses[1].nodeName: Invalid value: \"\": " + SUBDOMAIN)),
                Arguments.of("endpoints: ports need names when several, numbers in range, a known protocol",
                        ep + "- addresses: [{ip: 10.0.0.1}]\n  ports: [{port: 80, protocol: TCP}, {name: Http, port: 0,"
                                + " protocol: TCP}, {name: a, port: 70000, protocol: FOO}, {name: b, port: 1},"
                                + " {name: c, port: 2, protocol: TCP, appProtocol: \"--\"}, {name: a, port: 3, protocol: TCP}]\n",
                        List.of("subsets[0].ports[0].name: Required value",
                                "subsets[0].ports[1].name: Invalid value: \"Http\": " + DNS_LABEL,
                                "subsets[0].ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive",
                                "subsets[0].ports[2].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
                                "subsets[0].ports[2].protocol: Unsupported value: \"FOO\": supported values: "
                                        + "\"SCTP\", \"TCP\", \"UDP\"",
                                "subsets[0].ports[3].protocol: Required value",
                                "subsets[0].ports[4].appProtocol: Invalid value: \"--\": " + QUALIFIED)),
                Arguments.of("endpoints: a single port may be unnamed",
                        ep + "- addresses: [{ip: 10.0.0.1}]\n  ports: [{port: 80, protocol: TCP}]\n", List.of()));
    }

    static Stream<Arguments> slices() {
        String s = "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: s, namespace: default}\n";
        String v4 = s + "addressType: IPv4\n";
        return Stream.of(
                Arguments.of("slice: a valid object passes", SLICE, List.of()),
                Arguments.of("slice: no ports or endpoints passes", v4 + "ports: []\nendpoints: []\n", List.of()),
                Arguments.of("slice: IPv6 and FQDN addresses",
                        s + "addressType: IPv6\nendpoints: [{addresses: [\"a00:100::4\"]}]\n", List.of()),
                Arguments.of("slice: FQDN addresses, a trailing dot allowed",
                        s + "addressType: FQDN\nendpoints: [{addresses: [foo.example.com, example.com, example.com.,"
                                + " hyphens-are-good.example.com]}]\n", List.of()),
                Arguments.of("slice: addressType required", s,
                        List.of("addressType: Required value")),
                Arguments.of("slice: addressType IP is deprecated, others unknown",
                        s + "addressType: IP\nendpoints: [{addresses: [foo]}]\n",
                        List.of("addressType: Unsupported value: \"IP\": supported values: \"FQDN\", \"IPv4\", \"IPv6\"")),
                Arguments.of("slice: port names unique (the empty one too) and DNS labels, protocols known",
                        v4 + "ports: [{name: \"\", protocol: TCP}, {name: \"\", protocol: TCP}, {name: aCapital,"
                                + " protocol: TCP}, {name: http, protocol: foo}, {name: x}, {name: y, protocol: TCP,"
                                + " appProtocol: \"--\"}, {name: http, protocol: UDP}]\n",
                        List.of("ports[1].name: Duplicate value: \"\"",
                                "ports[2].name: Invalid value: \"aCapital\": " + DNS_LABEL,
                                "ports[3].protocol: Unsupported value: \"foo\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
                                "ports[4].protocol: Required value",
                                "ports[5].appProtocol: Invalid value: \"--\": " + QUALIFIED,
                                "ports[6].name: Duplicate value: \"http\"")),
                Arguments.of("slice: at most 20000 ports", v4 + "ports: [" + repeat(20001, i -> "{name: p" + i
                                + ", protocol: TCP}") + "]\n",
                        List.of("ports: Too many: 20001: must have at most 20000 items")),
                Arguments.of("slice: 20000 ports pass", v4 + "ports: [" + repeat(20000, i -> "{name: p" + i
                        + ", protocol: TCP}") + "]\n", List.of()),
                Arguments.of("slice: at most 1000 endpoints", v4 + "endpoints: [" + repeat(1001, i -> "{addresses: [10.1.2."
                                + i % 255 + "]}") + "]\n",
                        List.of("endpoints: Too many: 1001: must have at most 1000 items")),
                Arguments.of("slice: 1000 endpoints pass", v4 + "endpoints: [" + repeat(1000, i -> "{addresses: [10.1.2."
                        + i % 255 + "]}") + "]\n", List.of()),
                Arguments.of("slice: one to 100 addresses per endpoint",
                        v4 + "endpoints: [{addresses: []}, {addresses: [" + repeat(101, i -> "10.1.2." + i) + "]}]\n",
                        List.of("endpoints[0].addresses: Required value: must contain at least 1 address",
                                "endpoints[1].addresses: Too many: 101: must have at most 100 items")),
                Arguments.of("slice: IPv4 addresses",
                        v4 + "endpoints: [{addresses: [123.456.789.012, \"2001:4860:4860::8888\", 169.254.0.1, 010.1.2.3]}]\n",
                        List.of("endpoints[0].addresses[0]: Invalid value: \"123.456.789.012\": must be a valid IPv4 address",
                                "endpoints[0].addresses[0]: Invalid value: \"123.456.789.012\": must be a valid IP address",
                                "endpoints[0].addresses[1]: Invalid value: \"2001:4860:4860::8888\": must be a valid IPv4 "
                                        + "address",
                                "endpoints[0].addresses[2]: Invalid value: \"169.254.0.1\": " + LINK_LOCAL)),
                Arguments.of("slice: IPv6 addresses",
                        s + "addressType: IPv6\nendpoints: [{addresses: [10.1.2.3, \"2001:4860:4860:defg\","
                                + " \"fe80::9656:d028:8652:66b6\"]}]\n",
                        List.of("endpoints[0].addresses[0]: Invalid value: \"10.1.2.3\": must be a valid IPv6 address",
                                "endpoints[0].addresses[1]: Invalid value: \"2001:4860:4860:defg\": must be a valid IPv6 "
                                        + "address",
                                "endpoints[0].addresses[1]: Invalid value: \"2001:4860:4860:defg\": must be a valid IP "
                                        + "address",
                                "endpoints[0].addresses[2]: Invalid value: \"fe80::9656:d028:8652:66b6\": " + LINK_LOCAL)),
                Arguments.of("slice: FQDN addresses",
                        s + "addressType: FQDN\nendpoints: [{addresses: [\"foo.*\", FOO.example.com, "
                                + "underscores_are_bad.example.com, \"*.example.com\", localhost, \"\"]}]\n",
                        List.of("endpoints[0].addresses[0]: Invalid value: \"foo.*\": " + SUBDOMAIN,
                                "endpoints[0].addresses[1]: Invalid value: \"FOO.example.com\": " + SUBDOMAIN,
                                "endpoints[0].addresses[2]: Invalid value: \"underscores_are_bad.example.com\": " + SUBDOMAIN,
                                "endpoints[0].addresses[3]: Invalid value: \"*.example.com\": " + SUBDOMAIN,
                                "endpoints[0].addresses[4]: Invalid value: \"localhost\": should be a domain with at "
                                        + "least two segments separated by dots",
                                "endpoints[0].addresses[5]: Required value")),
                Arguments.of("slice: nodeName, hostname",
                        v4 + "endpoints: [{addresses: [10.1.2.3], nodeName: INvalid-node-name, hostname: \"--INVALID\"}]\n",
                        List.of("endpoints[0].nodeName: Invalid value: \"INvalid-node-name\": " + SUBDOMAIN,
                                "endpoints[0].hostname: Invalid value: \"--INVALID\": " + DNS_LABEL)),
                Arguments.of("slice: deprecatedTopology labels, at most 16, not the zone",
                        v4 + "endpoints: [{addresses: [10.1.2.3], deprecatedTopology: {\"--INVALID\": example}},"
                                + " {addresses: [10.1.2.4], deprecatedTopology: {" + repeat(17, i -> "topology-" + i
                                + ": example") + "}}, {addresses: [10.1.2.5], deprecatedTopology: "
                                + "{topology.kubernetes.io/zone: zone1}}]\n",
                        List.of("endpoints[0].deprecatedTopology: Invalid value: \"--INVALID\": " + QUALIFIED,
                                "endpoints[1].deprecatedTopology: Too many: 17: must have at most 16 items",
                                "endpoints[2].deprecatedTopology[topology.kubernetes.io/zone]: Internal error: reserved "
                                        + "key was not removed in conversion")),
                Arguments.of("slice: zone and node hints named once, label values and node names",
                        v4 + "endpoints: [{addresses: [10.1.2.3], hints: {forZones: [{name: zone-a}, {name: \"inv@lid\"},"
                                + " {name: zone-a}], forNodes: [{name: n1}, {name: N_2}, {name: n1}]}}]\n",
                        List.of("endpoints[0].hints.forZones[1].name: Invalid value: \"inv@lid\": " + LABEL_VALUE,
                                "endpoints[0].hints.forZones[2].name: Duplicate value: \"zone-a\"",
                                "endpoints[0].hints.forNodes[1].name: Invalid value: \"N_2\": " + SUBDOMAIN,
                                "endpoints[0].hints.forNodes[2].name: Duplicate value: \"n1\"")),
                Arguments.of("slice: at most 8 zone hints, which ends the hint checks",
                        v4 + "endpoints: [{addresses: [10.1.2.3], hints: {forZones: [" + repeat(9, i -> "{name: z" + i + "}")
                                + "], forNodes: [{name: N_2}]}}]\n",
                        List.of("endpoints[0].hints.forZones: Too many: 9: must have at most 8 items")),
                Arguments.of("slice: at most 8 node hints",
                        v4 + "endpoints: [{addresses: [10.1.2.3], hints: {forNodes: [" + repeat(9, i -> "{name: n" + i + "}")
                                + "]}}]\n",
                        List.of("endpoints[0].hints.forNodes: Too many: 9: must have at most 8 items")),
                Arguments.of("slice: an unknown addressType checks no addresses, ports before endpoints",
                        s + "addressType: other\nports: [{name: x}]\nendpoints: [{addresses: [\"not an address\"]}]\n",
                        List.of("addressType: Unsupported value: \"other\": supported values: \"FQDN\", \"IPv4\", \"IPv6\"",
                                "ports[0].protocol: Required value")));
    }

    @Test
    @DisplayName("an Endpoints update is checked as a create")
    void endpointsUpdate() {
        String moved = ENDPOINTS.replace("nodeName: node-1.example.com", "nodeName: node-2");
        assertEquals(List.of(), Fixtures.update(moved, ENDPOINTS));
        assertEquals(List.of("subsets[0].addresses[0].ip: Invalid value: \"169.254.0.1\": " + LINK_LOCAL),
                Fixtures.update(ENDPOINTS.replace("ip: 10.1.2.3", "ip: 169.254.0.1"), ENDPOINTS));
        // unlike kube, loopback is accepted (see SpecialIps): Kapi advertises and serves on it
        assertEquals(List.of(), Fixtures.update(ENDPOINTS.replace("ip: 10.1.2.3", "ip: 127.0.0.1"), ENDPOINTS));
    }

    @Test
    @DisplayName("a slice update keeps the addressType; only changed endpoints are checked again")
    void sliceUpdate() {
        assertEquals(List.of(), Fixtures.update(SLICE, SLICE));
        assertEquals(List.of("addressType: Invalid value: \"IPv6\": field is immutable"),
                Fixtures.update(SLICE.replace("addressType: IPv4", "addressType: IPv6")
                        .replace("[10.1.2.3]", "[\"fd00::1\"]"), SLICE));
        String linkLocal = SLICE.replace("[10.1.2.3]", "[169.254.0.1]");
        assertEquals(List.of(), Fixtures.update(linkLocal.replace("appProtocol: https", "appProtocol: http"), linkLocal),
                "unchanged endpoints are not checked again");
        assertEquals(List.of("endpoints[0].addresses[0]: Invalid value: \"169.254.0.1\": " + LINK_LOCAL),
                Fixtures.update(linkLocal, SLICE));
        assertEquals(List.of("ports[0].protocol: Unsupported value: \"invalid\": supported values: \"SCTP\", \"TCP\", "
                        + "\"UDP\""),
                Fixtures.update(SLICE.replace("protocol: TCP", "protocol: invalid"), SLICE));
    }

    private static String repeat(int n, java.util.function.IntFunction<String> item) {
        return IntStream.range(0, n).mapToObj(item).collect(Collectors.joining(", "));
    }
}
