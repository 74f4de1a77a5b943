package io.kapi.apis.validation;

import static io.kapi.apis.validation.ClusterKindsValidationTest.SUBDOMAIN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ControllerRevisions, IPAddresses and ServiceCIDRs (cases after kube's apps and networking validation_test.go). */
class MoreKindsValidationTest {

    static final String REVISION = """
            apiVersion: apps/v1
            kind: ControllerRevision
            metadata: {name: web-5d8f7c, namespace: default}
            data: {spec: {template: {metadata: {labels: {app: web}}}}}
            revision: 2
            """;

    static final String IP = """
            apiVersion: networking.k8s.io/v1
            kind: IPAddress
            metadata: {name: 10.96.0.10}
            spec:
              parentRef: {group: "", resource: services, namespace: kube-system, name: kube-dns}
            """;

    static final String CIDR = """
            apiVersion: networking.k8s.io/v1
            kind: ServiceCIDR
            metadata: {name: kubernetes}
            spec:
              cidrs: [10.96.0.0/12]
            """;

    static final String DUAL = CIDR.replace("[10.96.0.0/12]", "[10.96.0.0/12, 'fd00:10:96::/112']");

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is checked with kube's field paths and messages")
    @MethodSource("creates")
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("an update is checked with kube's field paths and messages")
    @MethodSource("updates")
    void updates(String name, String yaml, String old, List<String> expected) {
        assertEquals(expected, Fixtures.update(yaml, old));
    }

    static Stream<Arguments> creates() {
        return Stream.of(revisions(), ipAddresses(), serviceCidrs()).flatMap(s -> s);
    }

    private static Stream<Arguments> revisions() {
        return Stream.of(
                Arguments.of("revision: a valid one passes", REVISION, List.of()),
                Arguments.of("revision: revision 0 passes", REVISION.replace("revision: 2", "revision: 0"), List.of()),
                Arguments.of("revision: data is required", REVISION.replaceAll("data: .*\n", ""),
                        List.of("data: Required value: data is mandatory")),
                Arguments.of("revision: null data is missing", REVISION.replaceAll("data: .*\n", "data: null\n"),
                        List.of("data: Required value: data is mandatory")),
                Arguments.of("revision: a negative revision", REVISION.replace("revision: 2", "revision: -1"),
                        List.of("revision: Invalid value: -1: must be greater than or equal to 0")));
    }

    private static String ipNamed(String name) {
        return IP.replace("name: 10.96.0.10}", "name: '" + name + "'}");
    }

    private static Stream<Arguments> ipAddresses() {
        String bad = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
        return Stream.of(
                Arguments.of("ip: a valid IPv4 one passes", IP, List.of()),
                Arguments.of("ip: a valid IPv6 one passes", ipNamed("2001:db8::1"), List.of()),
                Arguments.of("ip: a name that is no IP", ipNamed("my-ip"),
                        List.of("metadata.name: Invalid value: \"my-ip\": " + bad)),
                Arguments.of("ip: leading zeros", ipNamed("10.96.0.010"),
                        List.of("metadata.name: Invalid value: \"10.96.0.010\": must not have leading 0s")),
                Arguments.of("ip: IPv4-mapped IPv6", ipNamed("::ffff:10.96.0.10"),
                        List.of("metadata.name: Invalid value: \"::ffff:10.96.0.10\": must not be an IPv4-mapped IPv6 address")),
                Arguments.of("ip: not canonical IPv6", ipNamed("2001:db8:0:0:0::1"),
                        List.of("metadata.name: Invalid value: \"2001:db8:0:0:0::1\": must be in canonical form (\"2001:db8::1\")")),
                Arguments.of("ip: upper-case IPv6", ipNamed("2001:DB8::1"),
                        List.of("metadata.name: Invalid value: \"2001:DB8::1\": must be in canonical form (\"2001:db8::1\")")),
                Arguments.of("ip: parentRef is required", IP.replaceAll("(?s)spec:.*", "spec: {}\n"),
                        List.of("spec.parentRef: Required value")),
                Arguments.of("ip: resource and name are required",
                        IP.replace("resource: services, namespace: kube-system, name: kube-dns", "namespace: kube-system"),
                        List.of("spec.parentRef.resource: Required value", "spec.parentRef.name: Required value")),
                Arguments.of("ip: a bad group", IP.replace("group: \"\"", "group: Foo_Bar"),
                        List.of("spec.parentRef.group: Invalid value: \"Foo_Bar\": " + SUBDOMAIN)),
                Arguments.of("ip: path segments", IP.replace("resource: services", "resource: a/b")
                                .replace("name: kube-dns", "name: '..'").replace("namespace: kube-system", "namespace: 'x%y'"),
                        List.of("spec.parentRef.resource: Invalid value: \"a/b\": may not contain '/'",
                                "spec.parentRef.name: Invalid value: \"..\": may not be '..'",
                                "spec.parentRef.namespace: Invalid value: \"x%y\": may not contain '%'")));
    }

    private static String cidrs(String list) {
        return CIDR.replace("[10.96.0.0/12]", list);
    }

    private static Stream<Arguments> serviceCidrs() {
        String p = "spec.cidrs";
        return Stream.of(
                Arguments.of("cidr: a valid one passes", CIDR, List.of()),
                Arguments.of("cidr: dual-stack passes", DUAL, List.of()),
                Arguments.of("cidr: none", cidrs("[]"), List.of(p + ": Required value: at least one CIDR required")),
                Arguments.of("cidr: three", cidrs("[10.0.0.0/16, 'fd00::/64', 10.1.0.0/16]"),
                        List.of(p + ": Invalid value: networking.ServiceCIDRSpec{CIDRs:[]string{\"10.0.0.0/16\", "
                                + "\"fd00::/64\", \"10.1.0.0/16\"}}: may only hold up to 2 values")),
                Arguments.of("cidr: same family twice", cidrs("[10.0.0.0/16, 10.1.0.0/16]"),
                        List.of(p + ": Invalid value: []string{\"10.0.0.0/16\", \"10.1.0.0/16\"}: may specify no more "
                                + "than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64")),
                Arguments.of("cidr: not a CIDR", cidrs("[10.0.0.0]"), List.of(p + "[0]: Invalid value: \"10.0.0.0\": "
                        + "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")),
                Arguments.of("cidr: leading zeros", cidrs("[10.0.0.0/016]"),
                        List.of(p + "[0]: Invalid value: \"10.0.0.0/016\": must not have leading 0s in IP or prefix length")),
                Arguments.of("cidr: bits beyond the prefix", cidrs("[10.0.0.1/16]"),
                        List.of(p + "[0]: Invalid value: \"10.0.0.1/16\": must not have bits set beyond the prefix length")),
                Arguments.of("cidr: IPv4-mapped", cidrs("['::ffff:10.0.0.0/112']"),
                        List.of(p + "[0]: Invalid value: \"::ffff:10.0.0.0/112\": must not have an IPv4-mapped IPv6 address")),
                Arguments.of("cidr: not canonical", cidrs("['fd00:0:0::/64']"),
                        List.of(p + "[0]: Invalid value: \"fd00:0:0::/64\": must be in canonical form (\"fd00::/64\")")));
    }

    static Stream<Arguments> updates() {
        String other = REVISION.replace("app: web", "app: web2");
        return Stream.of(
                Arguments.of("revision: unchanged data passes", REVISION.replace("revision: 2", "revision: 3"), REVISION, List.of()),
                Arguments.of("revision: data is immutable", "apiVersion: apps/v1\nkind: ControllerRevision\n"
                        + "metadata: {name: r, namespace: default}\ndata: {a: 1}\nrevision: 1\n", other,
                        List.of("data: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:\"\", Kind:\"\"}, "
                                + "Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d}, ContentEncoding:\"\", "
                                + "ContentType:\"application/json\"}: field is immutable")),
                Arguments.of("ip: parentRef is immutable", IP.replace("name: kube-dns", "name: other"), IP,
                        List.of("spec.parentRef: Invalid value: networking.ParentReference{Group:\"\", Resource:\"services\", "
                                + "Namespace:\"kube-system\", Name:\"other\"}: field is immutable")),
                Arguments.of("ip: an unchanged one passes", IP, IP, List.of()),
                Arguments.of("cidr: a secondary CIDR may be added", DUAL, CIDR, List.of()),
                Arguments.of("cidr: the primary may not change", cidrs("[10.97.0.0/16]"), CIDR,
                        List.of("spec.cidrs[0]: Invalid value: \"10.97.0.0/16\": field is immutable")),
                Arguments.of("cidr: adding keeps the first and checks the spec", cidrs("[10.97.0.0/16, 10.98.0.0/16]"), CIDR,
                        List.of("spec.cidrs[0]: Invalid value: \"10.97.0.0/16\": field is immutable",
                                "spec.cidrs: Invalid value: []string{\"10.97.0.0/16\", \"10.98.0.0/16\"}: may specify no more "
                                        + "than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64")),
                Arguments.of("cidr: one may not be removed", CIDR, DUAL,
                        List.of("spec.cidrs: Invalid value: []string{\"10.96.0.0/12\"}: field is immutable")));
    }
}
