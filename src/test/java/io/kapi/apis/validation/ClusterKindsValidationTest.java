package io.kapi.apis.validation;

import static io.kapi.apis.validation.BuiltinValidationTest.DNS_LABEL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** LimitRanges, IngressClasses, RuntimeClasses and ServiceAccounts (cases after kube's validation_test.go). */
class ClusterKindsValidationTest {

    static final String LIMIT_RANGE = """
            apiVersion: v1
            kind: LimitRange
            metadata: {name: lr, namespace: default}
            spec:
              limits:
              - type: Pod
                max: {cpu: 100m, memory: 10000Mi}
                min: {cpu: 5m, memory: 100Mi}
                maxLimitRequestRatio: {cpu: "10"}
              - type: Container
                max: {cpu: 100m, memory: 10000Mi, example.com/gpu: "4"}
                min: {cpu: 5m, memory: 100Mi}
                default: {cpu: 50m, memory: 500Mi, example.com/gpu: "1"}
                defaultRequest: {cpu: 10m, memory: 200Mi, example.com/gpu: "1"}
                maxLimitRequestRatio: {cpu: "10"}
              - type: PersistentVolumeClaim
                max: {storage: 10Gi}
                min: {storage: 1Gi}
              - type: example.com/custom
                max: {example.com/foo: "5"}
            """;

    static final String INGRESS_CLASS = """
            apiVersion: networking.k8s.io/v1
            kind: IngressClass
            metadata: {name: nginx}
            spec:
              controller: example.com/ingress-controller
              parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb, scope: Cluster}
            """;

    static final String RUNTIME_CLASS = """
            apiVersion: node.k8s.io/v1
            kind: RuntimeClass
            metadata: {name: gvisor}
            handler: runsc
            overhead: {podFixed: {cpu: 250m, memory: 64Mi}}
            scheduling:
              nodeSelector: {runtime: gvisor}
              tolerations: [{key: runtime, operator: Equal, value: gvisor, effect: NoSchedule}]
            """;

    static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    static final String QUALIFIED = "name part must consist of alphanumeric characters, '-', '_' or '.', and must "
            + "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
            + "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is checked with kube's field paths and messages")
    @MethodSource("creates")
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    static Stream<Arguments> creates() {
        return Stream.of(limitRanges(), ingressClasses(), runtimeClasses()).flatMap(s -> s);
    }

    /** One LimitRange of a single item. */
    private static String limits(String item) {
        return "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: default}\nspec:\n  limits:\n" + item;
    }

    private static Stream<Arguments> limitRanges() {
        String p = "spec.limits[0].";
        return Stream.of(
                Arguments.of("limit range: a valid one passes", LIMIT_RANGE, List.of()),
                Arguments.of("limit range: an empty one passes", LIMIT_RANGE.replaceAll("(?s)  limits:.*", "  limits: []\n"), List.of()),
                Arguments.of("limit range: duplicate type", limits("  - {type: Pod}\n  - {type: Pod}\n"),
                        List.of("spec.limits[1].type: Duplicate value: \"Pod\"")),
                Arguments.of("limit range: unknown type", limits("  - {type: Foo}\n"),
                        List.of(p + "type: Invalid value: \"Foo\": must be a standard limit type or fully qualified")),
                Arguments.of("limit range: type not a qualified name", limits("  - {type: \"-Foo\"}\n"),
                        List.of(p + "type: Invalid value: \"-Foo\": " + QUALIFIED)),
                Arguments.of("limit range: pod defaults", limits("  - {type: Pod, default: {cpu: 1}, defaultRequest: {cpu: 1}}\n"),
                        List.of(p + "default: Forbidden: may not be specified when `type` is 'Pod'",
                                p + "defaultRequest: Forbidden: may not be specified when `type` is 'Pod'")),
                Arguments.of("limit range: container resource names",
                        limits("  - type: Container\n    max: {storage: 1Gi, foo: 1, \"-cpu\": 1, requests.example.com/x: 1}\n"),
                        List.of(p + "max[-cpu]: Invalid value: \"-cpu\": " + QUALIFIED,
                                p + "max[-cpu]: Invalid value: \"-cpu\": must be a standard resource for containers",
                                p + "max[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified",
                                p + "max[foo]: Invalid value: \"foo\": must be a standard resource for containers",
                                p + "max[requests.example.com/x]: Invalid value: \"requests.example.com/x\": doesn't "
                                        + "follow extended resource name standard",
                                p + "max[storage]: Invalid value: \"storage\": must be a standard resource for containers")),
                Arguments.of("limit range: claim resource names need only be standard",
                        limits("  - type: PersistentVolumeClaim\n    max: {storage: 1Gi, foo: 1}\n"),
                        List.of(p + "max[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified")),
                Arguments.of("limit range: claim without storage bounds",
                        limits("  - type: PersistentVolumeClaim\n    max: {requests.storage: 1Gi}\n"),
                        List.of(p + "limits: Required value: either minimum or maximum storage value is required, "
                                + "but neither was provided")),
                Arguments.of("limit range: min above max", limits("  - {type: Pod, min: {cpu: 200m}, max: {cpu: 100m}}\n"),
                        List.of(p + "min[cpu]: Invalid value: 200m: min value 200m is greater than max value 100m")),
                Arguments.of("limit range: default request above max and default",
                        limits("  - {type: Container, max: {cpu: 100m}, default: {cpu: 50m}, defaultRequest: {cpu: 200m}}\n"),
                        List.of(p + "defaultRequest[cpu]: Invalid value: 200m: default request value 200m is greater "
                                        + "than max value 100m",
                                p + "defaultRequest[cpu]: Invalid value: 200m: default request value 200m is greater "
                                        + "than default limit value 50m")),
                Arguments.of("limit range: min above default request and default",
                        limits("  - {type: Container, min: {memory: 1Gi}, default: {memory: 500Mi}, "
                                + "defaultRequest: {memory: 100Mi}}\n"),
                        List.of(p + "defaultRequest[memory]: Invalid value: 100Mi: min value 1Gi is greater than "
                                        + "default request value 100Mi",
                                p + "default[memory]: Invalid value: 1Gi: min value 1Gi is greater than default value 500Mi")),
                Arguments.of("limit range: default above max reports the max",
                        limits("  - {type: Container, max: {cpu: \"1\"}, default: {cpu: \"2\"}}\n"),
                        List.of(p + "default[cpu]: Invalid value: 1: default value 2 is greater than max value 1")),
                Arguments.of("limit range: ratio below 1", limits("  - {type: Pod, maxLimitRequestRatio: {cpu: 800m}}\n"),
                        List.of(p + "maxLimitRequestRatio[cpu]: Invalid value: 800m: ratio 800m is less than 1")),
                Arguments.of("limit range: ratio above max/min",
                        limits("  - {type: Pod, min: {cpu: 30m}, max: {cpu: 100m}, maxLimitRequestRatio: {cpu: \"4\"}}\n"),
                        List.of(p + "maxLimitRequestRatio[cpu]: Invalid value: 4: ratio 4 is greater than max/min = 3.333333")),
                Arguments.of("limit range: non-overcommitable default and request differ",
                        limits("  - {type: Container, default: {example.com/gpu: \"2\"}, "
                                + "defaultRequest: {example.com/gpu: \"1\"}}\n"),
                        List.of(p + "defaultRequest[example.com/gpu]: Invalid value: 1: default value 2 must equal to "
                                + "defaultRequest value 1 in example.com/gpu")));
    }

    private static String ingressClass(String spec) {
        return "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: c}\nspec: " + spec + "\n";
    }

    private static String parameters(String params) {
        return ingressClass("{controller: example.com/c, parameters: " + params + "}");
    }

    private static Stream<Arguments> ingressClasses() {
        String c = "spec.controller: ";
        String p = "spec.parameters.";
        return Stream.of(
                Arguments.of("ingress class: a valid one passes", INGRESS_CLASS, List.of()),
                Arguments.of("ingress class: namespaced parameters pass",
                        parameters("{kind: K, name: n, scope: Namespace, namespace: default}"), List.of()),
                Arguments.of("ingress class: controller required", ingressClass("{}"), List.of(c + "Required value")),
                Arguments.of("ingress class: controller not domain-prefixed", ingressClass("{controller: nginx}"),
                        List.of(c + "Invalid value: \"nginx\": must be a domain-prefixed path (such as \"acme.io/foo\")")),
                Arguments.of("ingress class: controller path empty", ingressClass("{controller: example.com/}"),
                        List.of(c + "Invalid value: \"example.com/\": must be a domain-prefixed path (such as "
                                + "\"acme.io/foo\")")),
                Arguments.of("ingress class: controller domain", ingressClass("{controller: Example.com/x}"),
                        List.of(c + "Invalid value: \"Example.com\": " + SUBDOMAIN)),
                Arguments.of("ingress class: controller path characters", ingressClass("{controller: \"example.com/a b\"}"),
                        List.of(c + "Invalid value: \"a b\": Invalid path (regex used for validation is "
                                + "'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')")),
                Arguments.of("ingress class: controller too long", ingressClass("{controller: example.com/" + "a".repeat(240) + "}"),
                        List.of(c + "Too long: must have at most 250 bytes")),
                Arguments.of("ingress class: parameters kind and name required", parameters("{scope: Cluster}"),
                        List.of(p + "kind: Required value: kind is required", p + "name: Required value: name is required")),
                Arguments.of("ingress class: parameters path segments and group",
                        parameters("{apiGroup: Bad_Group, kind: a/b, name: \"..\", scope: Cluster}"),
                        List.of(p + "apiGroup: Invalid value: \"Bad_Group\": " + SUBDOMAIN,
                                p + "kind: Invalid value: \"a/b\": may not contain '/'",
                                p + "name: Invalid value: \"..\": may not be '..'")),
                Arguments.of("ingress class: parameters scope required", parameters("{kind: K, name: n}"),
                        List.of(p + "scope: Required value")),
                Arguments.of("ingress class: parameters scope supported", parameters("{kind: K, name: n, scope: Global}"),
                        List.of(p + "scope: Unsupported value: \"Global\": supported values: \"Cluster\", \"Namespace\"")),
                Arguments.of("ingress class: namespace scope needs a namespace", parameters("{kind: K, name: n, scope: Namespace}"),
                        List.of(p + "namespace: Required value: `parameters.scope` is set to 'Namespace'")),
                Arguments.of("ingress class: namespace must be a DNS label",
                        parameters("{kind: K, name: n, scope: Namespace, namespace: Bad_NS}"),
                        List.of(p + "namespace: Invalid value: \"Bad_NS\": " + DNS_LABEL)),
                Arguments.of("ingress class: cluster scope takes no namespace",
                        parameters("{kind: K, name: n, scope: Cluster, namespace: default}"),
                        List.of(p + "namespace: Forbidden: `parameters.scope` is set to 'Cluster'")));
    }

    private static Stream<Arguments> runtimeClasses() {
        String head = "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: r}\nhandler: runc\n";
        String t = "scheduling.tolerations";
        return Stream.of(
                Arguments.of("runtime class: a valid one passes", RUNTIME_CLASS, List.of()),
                Arguments.of("runtime class: handler required as a DNS label",
                        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: r}\n",
                        List.of("handler: Invalid value: \"\": " + DNS_LABEL)),
                Arguments.of("runtime class: handler without dots", RUNTIME_CLASS.replace("handler: runsc", "handler: run.sc"),
                        List.of("handler: Invalid value: \"run.sc\": must not contain dots")),
                Arguments.of("runtime class: overhead quantities and names",
                        head + "overhead: {podFixed: {cpu: \"-1\", foo: \"1\", example.com/dev: 500m}}\n",
                        List.of("overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
                                "overhead.limits[example.com/dev]: Invalid value: 500m: must be an integer",
                                "overhead.limits[foo]: Invalid value: \"foo\": must be a standard resource type or "
                                        + "fully qualified",
                                "overhead.limits[foo]: Invalid value: \"foo\": must be a standard resource for containers")),
                Arguments.of("runtime class: hugepages need cpu or memory", head + "overhead: {podFixed: {hugepages-2Mi: 4Mi}}\n",
                        List.of("overhead: Forbidden: HugePages require cpu or memory")),
                Arguments.of("runtime class: hugepages in whole pages",
                        head + "overhead: {podFixed: {hugepages-2Mi: 3Mi, memory: 1Gi}}\n",
                        List.of("overhead.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer "
                                + "multiple of hugepages-2Mi")),
                Arguments.of("runtime class: node selector labels", head + "scheduling: {nodeSelector: {runtime: \"a b\"}}\n",
                        List.of("scheduling.nodeSelector: Invalid value: \"a b\": a valid label must be an empty string "
                                + "or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                                + "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
                                + "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")),
                Arguments.of("runtime class: toleration operator", head + "scheduling: {tolerations: [{key: k, operator: Foo}]}\n",
                        List.of(t + "[0].operator: Unsupported value: \"Foo\": supported values: \"Equal\", \"Exists\"")),
                Arguments.of("runtime class: duplicate tolerations", head + "scheduling:\n  tolerations:\n"
                                + "  - {key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 5}\n"
                                + "  - {key: k, operator: Equal, value: v}\n"
                                + "  - {key: k, operator: Exists, effect: NoExecute}\n",
                        List.of(t + "[2]: Duplicate value: core.Toleration{Key:\"k\", Operator:\"Exists\", Value:\"\", "
                                + "Effect:\"NoExecute\", TolerationSeconds:(*int64)(nil)}")));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("an update is checked with kube's field paths and messages")
    @MethodSource("updates")
    void updates(String name, String yaml, String old, List<String> expected) {
        assertEquals(expected, Fixtures.update(yaml, old));
    }

    static Stream<Arguments> updates() {
        String otherParams = INGRESS_CLASS.replace("name: external-lb", "name: internal-lb");
        return Stream.of(
                Arguments.of("ingress class: parameters may change", otherParams, INGRESS_CLASS, List.of()),
                Arguments.of("ingress class: controller is immutable, checked before the spec",
                        INGRESS_CLASS.replace("example.com/ingress-controller", "nginx"), INGRESS_CLASS,
                        List.of("spec.controller: Invalid value: \"nginx\": field is immutable",
                                "spec.controller: Invalid value: \"nginx\": must be a domain-prefixed path (such as "
                                        + "\"acme.io/foo\")")),
                Arguments.of("runtime class: scheduling may change",
                        RUNTIME_CLASS.replace("runtime: gvisor", "runtime: other"), RUNTIME_CLASS, List.of()),
                Arguments.of("runtime class: handler is immutable, checked after the object",
                        RUNTIME_CLASS.replace("handler: runsc", "handler: Kata"), RUNTIME_CLASS,
                        List.of("handler: Invalid value: \"Kata\": " + DNS_LABEL,
                                "handler: Invalid value: \"Kata\": field is immutable")),
                Arguments.of("limit range: an update is validated as a create",
                        LIMIT_RANGE.replace("min: {storage: 1Gi}", "min: {storage: 20Gi}"), LIMIT_RANGE,
                        List.of("spec.limits[2].min[storage]: Invalid value: 20Gi: min value 20Gi is greater than max "
                                + "value 10Gi")));
    }

    @Test
    @DisplayName("a service account has no rules beyond ObjectMeta, as kube's ValidateServiceAccount")
    void serviceAccount() {
        String sa = """
                apiVersion: v1
                kind: ServiceAccount
                metadata: {name: builder, namespace: default}
                secrets: [{name: ""}, {name: Not_A_Name, namespace: elsewhere}]
                imagePullSecrets: [{name: ""}]
                automountServiceAccountToken: false
                """;
        assertEquals(List.of(), Fixtures.create(sa));
        assertEquals(List.of(), Fixtures.update(sa, sa));
    }

    @Test
    @DisplayName("go's %f renders six decimals of the exact value and +Inf")
    void goFloat() {
        assertEquals("3.333333", LimitRanges.goFloat(100.0 / 30.0));
        assertEquals("20.000000", LimitRanges.goFloat(20));
        assertEquals("+Inf", LimitRanges.goFloat(1.0 / 0.0));
        assertEquals("-0.500000", LimitRanges.goFloat(-0.5));
    }
}
