package io.kapi.apis.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinKinds;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.registry.Defaulter;
import io.kapi.registry.GenericStrategy;
import io.kapi.registry.KindValidator;
import io.kapi.registry.Strategy;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Part 3: status reset on create, kept on main-resource updates; pod QoS; cron syntax. */
class SpecStatusStrategyTest {

    static final Strategy BASE = new GenericStrategy(true, false, Defaulter.NONE, KindValidator.NONE);

    static Strategy strategy(String group, String version, String kind) {
        return BuiltinKinds.of(new GroupVersionKind(group, version, kind)).withStatusSplit(BASE);
    }

    @ParameterizedTest(name = "{0}/{1} {2} → {3}")
    @DisplayName("create replaces a client-sent status with the kind's initial status")
    @MethodSource("initial")
    void create(String group, String version, String kind, String status) {
        ObjectNode o = Fixtures.yaml("metadata: {name: x}\nspec: {}\nstatus: {phase: Running, replicas: 9}\n");
        strategy(group, version, kind).prepareForCreate(o);
        assertEquals(Fixtures.yaml(status), o.get("status"));
    }

    static Stream<Arguments> initial() {
        return Stream.of(
                Arguments.of("", "v1", "Pod", "{phase: Pending, qosClass: BestEffort}"),
                Arguments.of("apps", "v1", "Deployment", "{}"),
                Arguments.of("apps", "v1", "ReplicaSet", "{replicas: 0}"),
                Arguments.of("apps", "v1", "StatefulSet", "{replicas: 0, availableReplicas: 0}"),
                Arguments.of("apps", "v1", "DaemonSet", "{currentNumberScheduled: 0, numberMisscheduled: 0, "
                        + "desiredNumberScheduled: 0, numberReady: 0}"),
                Arguments.of("batch", "v1", "Job", "{}"),
                Arguments.of("", "v1", "Service", "{loadBalancer: {}}"),
                Arguments.of("autoscaling", "v2", "HorizontalPodAutoscaler", "{desiredReplicas: 0}"),
                Arguments.of("policy", "v1", "PodDisruptionBudget", "{disruptionsAllowed: 0, currentHealthy: 0, "
                        + "desiredHealthy: 0, expectedPods: 0}"));
    }

    @Test
    @DisplayName("a main-resource update keeps the stored status and bumps generation only for spec changes")
    void updateKeepsStatus() {
        Strategy s = strategy("apps", "v1", "Deployment");
        ObjectNode old = Fixtures.yaml("metadata: {name: d, generation: 3}\nspec: {replicas: 1}\nstatus: {replicas: 1}\n");
        ObjectNode statusOnly = Fixtures.yaml("metadata: {name: d}\nspec: {replicas: 1}\nstatus: {replicas: 7}\n");
        s.prepareForUpdate(statusOnly, old);
        assertEquals(Fixtures.yaml("{replicas: 1}"), statusOnly.get("status"));
        assertEquals(3, statusOnly.path("metadata").path("generation").asLong());
        ObjectNode specChange = Fixtures.yaml("metadata: {name: d}\nspec: {replicas: 2}\n");
        s.prepareForUpdate(specChange, old);
        assertEquals(Fixtures.yaml("{replicas: 1}"), specChange.get("status"));
        assertEquals(4, specChange.path("metadata").path("generation").asLong());
    }

    @Test
    @DisplayName("kinds without a status split keep their strategy as is")
    void noSplit() {
        assertSame(BASE, strategy("", "v1", "ConfigMap"));
        assertNull(BuiltinKinds.of(new GroupVersionKind("", "v1", "Namespace")).status());
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("pod QoS class is computed as kube's ComputePodQOS")
    @MethodSource("qos")
    void qos(String expected, String containers) {
        assertEquals(expected, PodQos.compute(Fixtures.yaml("containers: " + containers)));
    }

    static Stream<Arguments> qos() {
        return Stream.of(
                Arguments.of("BestEffort", "[{name: a}]"),
                Arguments.of("Guaranteed", "[{name: a, resources: {limits: {cpu: 1, memory: 1Gi}}}]"),
                Arguments.of("Guaranteed", "[{name: a, resources: {requests: {cpu: 1000m, memory: 1Gi}, "
                        + "limits: {cpu: 1, memory: 1Gi}}}]"),
                Arguments.of("Burstable", "[{name: a, resources: {requests: {cpu: 100m}}}]"),
                Arguments.of("Burstable", "[{name: a, resources: {limits: {cpu: 1, memory: 1Gi}}}, {name: b}]"));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("cron schedules are checked as robfig/cron's ParseStandard")
    @MethodSource("crons")
    void cron(String schedule, String error) {
        assertEquals(error, Cron.check(schedule));
    }

    static Stream<Arguments> crons() {
        return Stream.of(
                Arguments.of("*/5 * * * *", null),
                Arguments.of("0 0 1 jan mon-fri", null),
                Arguments.of("@hourly", null),
                Arguments.of("@every 5m", null),
                Arguments.of("@sometimes", "unrecognized descriptor: @sometimes"),
                Arguments.of("60 * * * *", "end of range (60) above maximum (59): 60"),
                Arguments.of("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
                Arguments.of("x * * * *", "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax"),
                Arguments.of("5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"));
    }

    @Test
    @DisplayName("the pod strategy's initial status follows the pod's resources")
    void podQosOnCreate() {
        ObjectNode pod = Fixtures.yaml(Fixtures.POD.replace("terminationMessagePolicy: File",
                "terminationMessagePolicy: File\n    resources: {limits: {cpu: 1, memory: 1Gi}}"));
        strategy("", "v1", "Pod").prepareForCreate(pod);
        assertEquals("Guaranteed", pod.path("status").path("qosClass").asText());
        assertFalse(pod.path("status").has("conditions"));
    }
}
