package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StatefulPodsTest {

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(text);
    }

    private static ObjectNode set(String policy) throws Exception {
        return json("""
                {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web","namespace":"ns","uid":"set-uid"},
                 "spec":{"serviceName":"nginx","selector":{"matchLabels":{"app":"web"}},%s
                  "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c"}],
                   "volumes":[{"name":"www","emptyDir":{}},{"name":"cache","emptyDir":{}}]}},
                  "volumeClaimTemplates":[{"metadata":{"name":"www","labels":{"tier":"data"}},"spec":{"accessModes":["ReadWriteOnce"]}}]}}"""
                .formatted(policy));
    }

    @Test
    @DisplayName("a Pod <set>-<n>: identity labels, hostname and subdomain, the claim's volume first replacing the template's")
    void newPod() throws Exception {
        ObjectNode pod = StatefulPods.newPod(set(""), 2, "web-abc");
        assertEquals("web-2", pod.at("/metadata/name").asText());
        assertEquals(json("""
                {"app":"web","statefulset.kubernetes.io/pod-name":"web-2","apps.kubernetes.io/pod-index":"2",
                 "controller-revision-hash":"web-abc"}"""), pod.at("/metadata/labels"));
        assertEquals("web-2/nginx", pod.at("/spec/hostname").asText() + "/" + pod.at("/spec/subdomain").asText());
        assertEquals(Json.MAPPER.readTree("""
                [{"name":"www","persistentVolumeClaim":{"claimName":"www-web-2"}},{"name":"cache","emptyDir":{}}]"""),
                pod.at("/spec/volumes"));
        assertEquals(2, StatefulPods.ordinal(pod, "web"));
        assertEquals(-1, StatefulPods.ordinal(pod, "we"));
    }

    @Test
    @DisplayName("a claim <template>-<set>-<n> keeps the template's labels and adds the selector's")
    void claims() throws Exception {
        JsonNode claim = StatefulPods.claims(set(""), 0).getFirst();
        assertEquals("www-web-0", claim.at("/metadata/name").asText());
        assertEquals(json("{\"tier\":\"data\",\"app\":\"web\"}"), claim.at("/metadata/labels"));
    }

    @Test
    @DisplayName("the retention policy's owners: the set while in range (whenDeleted Delete), the Pod once scaled away (whenScaled Delete)")
    void retention() throws Exception {
        ObjectNode pod = json("{\"metadata\":{\"name\":\"web-3\",\"uid\":\"pod-uid\"}}");
        JsonNode claim = json("{\"metadata\":{\"ownerReferences\":[{\"kind\":\"Other\",\"uid\":\"x\"}]}}");
        ObjectNode both = set("\"persistentVolumeClaimRetentionPolicy\":{\"whenDeleted\":\"Delete\",\"whenScaled\":\"Delete\"},");
        assertEquals("Other:x StatefulSet:set-uid:true", refs(StatefulPods.retentionRefs(claim, both, pod, true)));
        assertEquals("Other:x Pod:pod-uid:true", refs(StatefulPods.retentionRefs(claim, both, pod, false)));
        ObjectNode deleted = set("\"persistentVolumeClaimRetentionPolicy\":{\"whenDeleted\":\"Delete\",\"whenScaled\":\"Retain\"},");
        assertEquals("Other:x StatefulSet:set-uid:true", refs(StatefulPods.retentionRefs(claim, deleted, pod, false)));
        assertEquals("Other:x", refs(StatefulPods.retentionRefs(claim, set(""), pod, false)));
        JsonNode controlled = json("{\"metadata\":{\"ownerReferences\":[{\"kind\":\"Other\",\"uid\":\"x\",\"controller\":true}]}}");
        assertEquals("Other:x:true", refs(StatefulPods.retentionRefs(controlled, both, pod, true)),
                "another controller's claim gets none of ours");
    }

    private static String refs(JsonNode refs) {
        StringBuilder b = new StringBuilder();
        for (JsonNode r : refs) {
            b.append(b.isEmpty() ? "" : " ").append(r.path("kind").asText()).append(':').append(r.path("uid").asText())
                    .append(r.path("controller").asBoolean(false) ? ":true" : "");
        }
        return b.toString();
    }
}
