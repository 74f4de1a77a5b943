package io.kapi.apis.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.Registry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The resources served in two versions, through the whole API in memory: what one version writes the
 * other reads, lists and watches, in its own form; server-side apply and managed fields across versions;
 * one storage prefix, one discovery hash.
 */
class ServedVersionsTest {

    private static final String V1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers";
    private static final String V2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";
    private static final String CORE_EVENTS = "/api/v1/namespaces/default/events";
    private static final String EVENTS = "/apis/events.k8s.io/v1/namespaces/default/events";

    @InMemoryApi
    private static ApiHarness api;

    private static String hpaV1(String name, int target) {
        return """
                {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"%s"},
                 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},
                 "maxReplicas":5,"targetCPUUtilizationPercentage":%d}}""".formatted(name, target);
    }

    private static String hpaV2(String name) {
        return """
                {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"%s"},
                 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":5,
                 "metrics":[{"type":"Resource","resource":{"name":"memory","target":{"type":"Utilization","averageUtilization":60}}},
                            {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}]}}"""
                .formatted(name);
    }

    private static JsonNode created(String path, String body) {
        ApiHarness.Reply r = api.post(path, body);
        assertEquals(201, r.code(), r.text());
        return r.body();
    }

    @Test
    @DisplayName("an HPA created through v1 with a 50% CPU target reads through v2 as a cpu Utilization metric of 50")
    void v1ThenV2() {
        JsonNode made = created(V1, hpaV1("one", 50));
        assertEquals("autoscaling/v1", made.path("apiVersion").asText());
        assertEquals(50, made.path("spec").path("targetCPUUtilizationPercentage").asInt());
        assertEquals(1, made.path("spec").path("minReplicas").asInt());
        assertEquals(Json.object().put("currentReplicas", 0).put("desiredReplicas", 0), made.get("status"));
        JsonNode v2 = api.get(V2 + "/one").body();
        assertEquals("autoscaling/v2", v2.path("apiVersion").asText());
        JsonNode metric = v2.path("spec").path("metrics").get(0);
        assertEquals("cpu", metric.path("resource").path("name").asText());
        assertEquals("Utilization", metric.path("resource").path("target").path("type").asText());
        assertEquals(50, metric.path("resource").path("target").path("averageUtilization").asInt());
        assertEquals(made.path("metadata").path("resourceVersion"), v2.path("metadata").path("resourceVersion"));
        assertFalse(v2.path("metadata").has("annotations"));
    }

    @Test
    @DisplayName("an HPA created through v2 reads through v1 with its CPU target and the other metrics in kube's annotation")
    void v2ThenV1() {
        created(V2, hpaV2("two"));
        JsonNode v1 = api.get(V1 + "/two").body();
        assertEquals(70, v1.path("spec").path("targetCPUUtilizationPercentage").asInt());
        assertEquals("[{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"targetAverageUtilization\":60}}]",
                v1.path("metadata").path("annotations").path(HpaAnnotations.METRICS).asText());
    }

    @Test
    @DisplayName("a v1 client that writes back what it read changes nothing; a v1 change of the target moves v2's metric")
    void v1WriteBack() {
        created(V2, hpaV2("back"));
        JsonNode before = api.get(V2 + "/back").body();
        JsonNode read = api.get(V1 + "/back").body();
        ApiHarness.Reply put = api.put(V1 + "/back", read.toString());
        assertEquals(200, put.code(), put.text());
        JsonNode after = api.get(V2 + "/back").body();
        assertEquals(before.path("metadata").path("resourceVersion"), after.path("metadata").path("resourceVersion"),
                "nothing stored");
        assertEquals(before.path("spec"), after.path("spec"));
        ApiHarness.Reply patched = api.patch(V1 + "/back", "application/merge-patch+json",
                "{\"spec\":{\"targetCPUUtilizationPercentage\":90}}");
        assertEquals(200, patched.code(), patched.text());
        JsonNode metrics = api.get(V2 + "/back").body().path("spec").path("metrics");
        assertEquals(List.of("memory:60", "cpu:90"), List.of(metric(metrics.get(0)), metric(metrics.get(1))));
    }

    private static String metric(JsonNode m) {
        return m.path("resource").path("name").asText() + ":" + m.path("resource").path("target").path("averageUtilization").asInt();
    }

    @Test
    @DisplayName("lists of either version hold every HPA in that version, as a list of that version")
    void lists() {
        created(V1, hpaV1("list-a", 40));
        created(V2, hpaV2("list-b"));
        for (String path : List.of(V1, V2)) {
            String version = path.contains("/v1/") ? "autoscaling/v1" : "autoscaling/v2";
            for (String query : List.of("", "?resourceVersion=0", "?limit=500")) {
                JsonNode list = api.get(path + query).body();
                assertEquals("HorizontalPodAutoscalerList", list.path("kind").asText());
                assertEquals(version, list.path("apiVersion").asText());
                List<String> names = new ArrayList<>();
                for (JsonNode item : list.path("items")) {
                    names.add(item.path("metadata").path("name").asText());
                    boolean v1Form = item.path("spec").has("targetCPUUtilizationPercentage")
                            || !item.path("spec").has("metrics");
                    assertEquals(version.endsWith("v1"), v1Form, path + query + ": " + item);
                }
                assertTrue(names.containsAll(List.of("list-a", "list-b")), names.toString());
            }
        }
    }

    @Test
    @DisplayName("watchers of each version get every event in their version, whichever version wrote it")
    void watches() throws Exception {
        String rv = api.get(V2).body().path("metadata").path("resourceVersion").asText();
        String query = "?watch=true&resourceVersion=" + rv + "&timeoutSeconds=3";
        ExecutorService watchers = Executors.newVirtualThreadPerTaskExecutor();
        Future<String> v1 = watchers.submit(() -> api.get(V1 + query).text());
        Future<String> v2 = watchers.submit(() -> api.get(V2 + query).text());
        watchers.shutdown();
        created(V1, hpaV1("watched", 55));
        assertEquals(200, api.patch(V2 + "/watched", "application/merge-patch+json",
                "{\"spec\":{\"maxReplicas\":7}}").code());
        assertEquals(200, api.delete(V1 + "/watched").code());
        List<JsonNode> seenV1 = frames(v1.get(), "watched");
        List<JsonNode> seenV2 = frames(v2.get(), "watched");
        assertEquals(List.of("ADDED", "MODIFIED", "DELETED"), seenV1.stream().map(f -> f.path("type").asText()).toList());
        assertEquals(List.of("ADDED", "MODIFIED", "DELETED"), seenV2.stream().map(f -> f.path("type").asText()).toList());
        for (JsonNode f : seenV1) {
            assertEquals("autoscaling/v1", f.path("object").path("apiVersion").asText());
            assertEquals(55, f.path("object").path("spec").path("targetCPUUtilizationPercentage").asInt());
        }
        for (JsonNode f : seenV2) {
            assertEquals("autoscaling/v2", f.path("object").path("apiVersion").asText());
            assertEquals(55, f.path("object").path("spec").path("metrics").get(0).path("resource").path("target")
                    .path("averageUtilization").asInt());
        }
        assertEquals(7, seenV1.get(1).path("object").path("spec").path("maxReplicas").asInt());
    }

    private static List<JsonNode> frames(String stream, String name) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : stream.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            try {
                JsonNode frame = Json.MAPPER.readTree(line);
                if (frame.path("object").path("metadata").path("name").asText().equals(name)) {
                    out.add(frame);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    @Test
    @DisplayName("server-side apply through v1 of an HPA created through v2: conflicts on v2's fields, forced it takes them")
    void applyAcrossVersions() {
        assertEquals(201, api.post(V2 + "?fieldManager=creator", hpaV2("applied")).code());
        String config = """
                {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"applied"},
                 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":5,
                 "targetCPUUtilizationPercentage":65}}""";
        ApiHarness.Reply conflict = api.patch(V1 + "/applied?fieldManager=applier", "application/apply-patch+yaml", config);
        assertEquals(409, conflict.code(), conflict.text());
        assertTrue(conflict.text().contains("conflict with \\\"creator\\\""), conflict.text());
        assertTrue(conflict.text().contains(".spec.metrics"), conflict.text());
        ApiHarness.Reply forced = api.patch(V1 + "/applied?fieldManager=applier&force=true",
                "application/apply-patch+yaml", config);
        assertEquals(200, forced.code(), forced.text());
        assertEquals(65, forced.body().path("spec").path("targetCPUUtilizationPercentage").asInt());
        JsonNode v2 = api.get(V2 + "/applied").body();
        assertEquals(List.of("memory:60", "cpu:65"), List.of(metric(v2.path("spec").path("metrics").get(0)),
                metric(v2.path("spec").path("metrics").get(1))));
        List<String> managers = new ArrayList<>();
        for (JsonNode e : v2.path("metadata").path("managedFields")) {
            managers.add(e.path("manager").asText() + " " + e.path("operation").asText() + " " + e.path("apiVersion").asText());
        }
        assertEquals(List.of("applier Apply autoscaling/v1", "creator Update autoscaling/v2"), managers);
        JsonNode applier = v2.path("metadata").path("managedFields").get(0).path("fieldsV1").path("f:spec");
        assertTrue(applier.has("f:targetCPUUtilizationPercentage"), applier.toString());
        JsonNode creator = v2.path("metadata").path("managedFields").get(1).path("fieldsV1").path("f:spec");
        assertFalse(creator.has("f:metrics"), "the forced apply took spec.metrics from the v2 manager: " + creator);
        ApiHarness.Reply again = api.patch(V1 + "/applied?fieldManager=applier", "application/apply-patch+yaml", config);
        assertEquals(200, again.code(), again.text());
        assertEquals(v2.path("metadata").path("resourceVersion").asText(),
                again.body().path("metadata").path("resourceVersion").asText(), "the same apply again changes nothing");
    }

    @Test
    @DisplayName("server-side apply through v1 creates an HPA; v2 sees it, with the applier's entry in autoscaling/v1")
    void applyCreatesThroughV1() {
        ApiHarness.Reply made = api.patch(V1 + "/apply-new?fieldManager=kubectl", "application/apply-patch+yaml",
                hpaV1("apply-new", 45));
        assertEquals(201, made.code(), made.text());
        JsonNode v2 = api.get(V2 + "/apply-new").body();
        assertEquals(45, v2.path("spec").path("metrics").get(0).path("resource").path("target")
                .path("averageUtilization").asInt());
        assertEquals("autoscaling/v1", v2.path("metadata").path("managedFields").get(0).path("apiVersion").asText());
    }

    @Test
    @DisplayName("v1 validation errors name the stored v2 fields, as kube validates the internal type")
    void validationInStorageVersion() {
        ApiHarness.Reply r = api.post(V1, hpaV1("bad", 0));
        assertEquals(422, r.code(), r.text());
        assertTrue(r.body().path("message").asText().contains(
                "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"), r.text());
    }

    private static String coreEvent(String name) {
        return """
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"%s"},
                 "involvedObject":{"kind":"Pod","namespace":"default","name":"p-%s"},"reason":"Started",
                 "message":"started it","source":{"component":"kubelet","host":"n1"},"count":2,"type":"Normal",
                 "firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:01:00Z"}""".formatted(name, name);
    }

    private static String newEvent(String name) {
        return """
                {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"%s"},
                 "eventTime":"2026-01-01T00:00:00.000000Z","reportingController":"example.com/ctl",
                 "reportingInstance":"ctl-1","action":"Sync","reason":"Synced","type":"Normal",
                 "regarding":{"kind":"Pod","namespace":"default","name":"p-%s"},"note":"synced it"}""".formatted(name, name);
    }

    @Test
    @DisplayName("core and events.k8s.io Events are one resource: each group reads, in its form, what the other wrote")
    void eventsBothWays() {
        created(CORE_EVENTS, coreEvent("ev-core"));
        JsonNode asNew = api.get(EVENTS + "/ev-core").body();
        assertEquals("events.k8s.io/v1", asNew.path("apiVersion").asText());
        assertEquals("p-ev-core", asNew.path("regarding").path("name").asText());
        assertEquals("started it", asNew.path("note").asText());
        assertEquals("kubelet", asNew.path("deprecatedSource").path("component").asText());
        assertEquals(2, asNew.path("deprecatedCount").asInt());
        created(EVENTS, newEvent("ev-new"));
        JsonNode asCore = api.get(CORE_EVENTS + "/ev-new").body();
        assertEquals("v1", asCore.path("apiVersion").asText());
        assertEquals("p-ev-new", asCore.path("involvedObject").path("name").asText());
        assertEquals("synced it", asCore.path("message").asText());
        assertEquals("example.com/ctl", asCore.path("reportingComponent").asText());
        Registry registry = api.assembly().registry();
        for (String group : List.of("", "events.k8s.io")) {
            ApiResource r = registry.resource(group, "v1", "events").orElseThrow();
            assertEquals("/registry/events/", registry.store(r).orElseThrow().definition().keys().prefix());
        }
    }

    @Test
    @DisplayName("each group selects Events by its own field labels: regarding.* in events.k8s.io, involvedObject.* in core")
    void eventFieldSelectors() {
        created(CORE_EVENTS, coreEvent("sel-a"));
        created(EVENTS, newEvent("sel-b"));
        for (String query : List.of("", "&resourceVersion=0", "&limit=10")) {
            assertEquals(List.of("sel-a"), names(api.get(EVENTS + "?fieldSelector=regarding.name%3Dp-sel-a" + query)));
            assertEquals(List.of("sel-b"), names(api.get(CORE_EVENTS + "?fieldSelector=involvedObject.name%3Dp-sel-b" + query)));
            assertEquals(List.of("sel-b"), names(api.get(EVENTS + "?fieldSelector=reportingController%3Dexample.com/ctl,"
                    + "regarding.name%3Dp-sel-b" + query)));
            assertEquals(List.of("sel-a"), names(api.get(EVENTS + "?fieldSelector=source%3Dkubelet,regarding.name%3Dp-sel-a"
                    + query)));
        }
        ApiHarness.Reply wrong = api.get(EVENTS + "?fieldSelector=involvedObject.name%3Dp-sel-a");
        assertEquals(400, wrong.code(), wrong.text());
        assertEquals("field label not supported: involvedObject.name", wrong.body().path("message").asText());
    }

    private static List<String> names(ApiHarness.Reply list) {
        assertEquals(200, list.code(), list.text());
        List<String> out = new ArrayList<>();
        list.body().path("items").forEach(i -> out.add(i.path("metadata").path("name").asText()));
        return out;
    }

    @Test
    @DisplayName("events.k8s.io checks new Events harder than core: eventTime, type, no deprecated fields")
    void strictEventsValidation() {
        ObjectNode bad = (ObjectNode) Yaml.wire(Yaml.of(newEvent("strict")));
        bad.remove("eventTime");
        bad.put("type", "Odd");
        bad.put("deprecatedCount", 3);
        ApiHarness.Reply r = api.post(EVENTS, bad.toString());
        assertEquals(422, r.code(), r.text());
        String message = r.body().path("message").asText();
        for (String expected : List.of("eventTime: Required value", "type: Invalid value: \"\": has invalid value: Odd",
                "count: Invalid value: \"\": needs to be unset")) {
            assertTrue(message.contains(expected), message);
        }
        created(EVENTS, newEvent("strict"));
        ApiHarness.Reply change = api.patch(EVENTS + "/strict", "application/merge-patch+json", "{\"note\":\"other\"}");
        assertEquals(422, change.code(), change.text());
        assertTrue(change.body().path("message").asText().contains("message: Invalid value: \"other\": field is immutable"),
                change.text());
        ApiHarness.Reply series = api.patch(EVENTS + "/strict", "application/merge-patch+json",
                "{\"series\":{\"count\":2,\"lastObservedTime\":\"2026-01-01T00:05:00.000000Z\"}}");
        assertEquals(200, series.code(), series.text());
        assertEquals(200, api.patch(CORE_EVENTS + "/strict", "application/merge-patch+json", "{\"message\":\"core may\"}")
                .code(), "core/v1 keeps kube's legacy rules");
    }

    @Test
    @DisplayName("discovery gives both versions of a resource the hash of the one storage version")
    void storageVersionHash() {
        assertEquals(hash("/apis/autoscaling/v2", "horizontalpodautoscalers"), hash("/apis/autoscaling/v1", "horizontalpodautoscalers"));
        assertEquals("qwQve8ut294=", hash("/apis/autoscaling/v1", "horizontalpodautoscalers"));
        assertEquals(hash("/api/v1", "events"), hash("/apis/events.k8s.io/v1", "events"));
    }

    private static String hash(String groupVersion, String resource) {
        for (JsonNode r : api.get(groupVersion).body().path("resources")) {
            if (r.path("name").asText().equals(resource)) {
                return r.path("storageVersionHash").asText();
            }
        }
        throw new AssertionError(resource + " not in " + groupVersion);
    }
}
