package io.kapi.apis.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.conversion.Converter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** events.k8s.io/v1 ↔ core/v1 Events, with the cases of kube's {@code pkg/apis/events/v1/conversion_test.go}. */
class EventsV1ConversionTest {

    private static final Converter EVENTS = new EventsV1Conversion();

    @Test
    @DisplayName("kube Test_convert_v1_Event_To_core_Event: regarding, deprecatedSource and note")
    void toCore() {
        ObjectNode core = EVENTS.toStorage(Yaml.of("""
                apiVersion: events.k8s.io/v1
                kind: Event
                metadata: {name: foo, namespace: default}
                regarding: {kind: Pod, namespace: default, name: foo}
                deprecatedSource: {component: controller-manager, host: master1}
                note: convert v1 event to core event
                """));
        assertEquals(Yaml.of("""
                apiVersion: v1
                kind: Event
                metadata: {name: foo, namespace: default}
                involvedObject: {kind: Pod, namespace: default, name: foo}
                message: convert v1 event to core event
                source: {component: controller-manager, host: master1}
                """), core);
    }

    @Test
    @DisplayName("kube Test_convert_core_Event_To_v1_Event: involvedObject, source and message")
    void fromCore() {
        ObjectNode ev = EVENTS.fromStorage(Yaml.of("""
                apiVersion: v1
                kind: Event
                metadata: {name: foo, namespace: default}
                involvedObject: {namespace: default, name: foo, kind: Pod}
                source: {component: controller-manager, host: master1}
                message: convert core event to v1 event
                """));
        assertEquals(Yaml.of("""
                apiVersion: events.k8s.io/v1
                kind: Event
                metadata: {name: foo, namespace: default}
                regarding: {kind: Pod, namespace: default, name: foo}
                deprecatedSource: {component: controller-manager, host: master1}
                note: convert core event to v1 event
                """), ev);
    }

    @Test
    @DisplayName("every field maps both ways: reportingController is reportingComponent, the deprecated ones the core ones")
    void allFields() {
        ObjectNode ev = Yaml.of("""
                apiVersion: events.k8s.io/v1
                kind: Event
                metadata: {name: e, namespace: ns, labels: {a: b}, resourceVersion: '42'}
                eventTime: '2026-01-01T00:00:00.000001Z'
                series: {count: 3, lastObservedTime: '2026-01-01T00:01:00.000000Z'}
                reportingController: kubelet
                reportingInstance: node-1
                action: Pulling
                reason: Pulling
                regarding: {kind: Pod, namespace: ns, name: p, uid: u1, apiVersion: v1, resourceVersion: '7', fieldPath: 'spec.containers{c}'}
                related: {kind: Node, name: node-1}
                note: pulling image
                type: Normal
                deprecatedSource: {component: kubelet, host: node-1}
                deprecatedFirstTimestamp: '2026-01-01T00:00:00Z'
                deprecatedLastTimestamp: '2026-01-01T00:01:00Z'
                deprecatedCount: 3
                """);
        ObjectNode core = EVENTS.toStorage(ev);
        assertEquals("kubelet", core.path("reportingComponent").asText());
        assertEquals("node-1", core.path("source").path("host").asText());
        assertEquals(3, core.path("count").asInt());
        assertEquals("2026-01-01T00:01:00Z", core.path("lastTimestamp").asText());
        assertEquals("42", core.path("metadata").path("resourceVersion").asText());
        assertEquals(ev, EVENTS.fromStorage(Yaml.wire(core)));
        assertEquals(core, EVENTS.toStorage(EVENTS.fromStorage(core)));
    }

    @Test
    @DisplayName("the object reference is a Go struct in both versions: always written, empty when unset")
    void referenceAlwaysWritten() {
        ObjectNode core = EVENTS.toStorage(Yaml.of("{apiVersion: events.k8s.io/v1, kind: Event, metadata: {name: e}}"));
        assertEquals(Yaml.of("{}"), core.get("involvedObject"));
        assertEquals(Yaml.of("{}"), EVENTS.fromStorage(Yaml.of("{apiVersion: v1, kind: Event, metadata: {name: e}}"))
                .get("regarding"));
    }
}
