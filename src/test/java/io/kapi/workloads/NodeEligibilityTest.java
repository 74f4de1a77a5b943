package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.workloads.NodeEligibility.Placement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodeEligibilityTest {

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(text);
    }

    private static JsonNode node(String labels, String taints) throws Exception {
        return json("{\"metadata\":{\"name\":\"n1\",\"labels\":" + labels + "},\"spec\":{\"taints\":" + taints + "}}");
    }

    @Test
    @DisplayName("every daemon Pod tolerates kube's node conditions; network-unavailable only with host networking")
    void daemonTolerations() throws Exception {
        ObjectNode spec = NodeEligibility.withDaemonTolerations(json("{\"containers\":[]}"));
        assertEquals(6, spec.path("tolerations").size());
        assertEquals(json("{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}"),
                spec.path("tolerations").get(0));
        assertEquals("node.kubernetes.io/unschedulable", spec.path("tolerations").get(5).path("key").asText());
        ObjectNode host = NodeEligibility.withDaemonTolerations(json("{\"hostNetwork\":true}"));
        assertEquals("node.kubernetes.io/network-unavailable", host.path("tolerations").get(6).path("key").asText());
        ObjectNode again = NodeEligibility.withDaemonTolerations(spec);
        assertEquals(6, again.path("tolerations").size(), "added once");
    }

    @Test
    @DisplayName("a node tainted unschedulable, not-ready or under pressure still runs the daemon Pod")
    void conditionTaints() throws Exception {
        JsonNode node = node("{}", """
                [{"key":"node.kubernetes.io/unschedulable","effect":"NoSchedule"},
                 {"key":"node.kubernetes.io/not-ready","effect":"NoExecute"},
                 {"key":"node.kubernetes.io/memory-pressure","effect":"NoSchedule"}]""");
        assertEquals(new Placement(true, true), NodeEligibility.placement(json("{}"), node));
        JsonNode network = node("{}", "[{\"key\":\"node.kubernetes.io/network-unavailable\",\"effect\":\"NoSchedule\"}]");
        assertEquals(new Placement(false, true), NodeEligibility.placement(json("{}"), network));
        assertEquals(new Placement(true, true), NodeEligibility.placement(json("{\"hostNetwork\":true}"), network));
    }

    @Test
    @DisplayName("an untolerated NoSchedule taint keeps new Pods off; an untolerated NoExecute one evicts too")
    void taints() throws Exception {
        JsonNode noSchedule = node("{}", "[{\"key\":\"dedicated\",\"value\":\"db\",\"effect\":\"NoSchedule\"}]");
        assertEquals(new Placement(false, true), NodeEligibility.placement(json("{}"), noSchedule));
        assertEquals(new Placement(true, true), NodeEligibility.placement(json("""
                {"tolerations":[{"key":"dedicated","operator":"Equal","value":"db","effect":"NoSchedule"}]}"""), noSchedule));
        assertEquals(new Placement(false, true), NodeEligibility.placement(json("""
                {"tolerations":[{"key":"dedicated","operator":"Equal","value":"web"}]}"""), noSchedule));
        JsonNode noExecute = node("{}", "[{\"key\":\"dedicated\",\"effect\":\"NoExecute\"}]");
        assertEquals(new Placement(false, false), NodeEligibility.placement(json("{}"), noExecute));
        assertEquals(new Placement(true, true), NodeEligibility.placement(json("""
                {"tolerations":[{"operator":"Exists"}]}"""), noExecute));
        JsonNode prefer = node("{}", "[{\"key\":\"x\",\"effect\":\"PreferNoSchedule\"}]");
        assertEquals(new Placement(true, true), NodeEligibility.placement(json("{}"), prefer));
    }

    @Test
    @DisplayName("nodeSelector and required node affinity (any term, every requirement) choose the nodes")
    void selectors() throws Exception {
        JsonNode ssd = node("{\"disk\":\"ssd\",\"cores\":\"8\"}", "[]");
        assertTrue(NodeEligibility.placement(json("{\"nodeSelector\":{\"disk\":\"ssd\"}}"), ssd).shouldRun());
        assertFalse(NodeEligibility.placement(json("{\"nodeSelector\":{\"disk\":\"hdd\"}}"), ssd).shouldRun());
        String affinity = """
                {"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
                 {"matchExpressions":[{"key":"disk","operator":"In","values":["nvme"]}]},
                 {"matchExpressions":[{"key":"cores","operator":"Gt","values":["%s"]},{"key":"gpu","operator":"DoesNotExist"}]}
                ]}}}}""";
        assertTrue(NodeEligibility.placement(json(affinity.formatted("4")), ssd).shouldRun());
        assertEquals(new Placement(false, false), NodeEligibility.placement(json(affinity.formatted("16")), ssd));
        assertFalse(NodeEligibility.placement(json("""
                {"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{}]}}}}"""),
                ssd).shouldRun(), "an empty term matches nothing");
        assertFalse(NodeEligibility.placement(json("{\"nodeName\":\"n2\"}"), ssd).shouldRun());
    }

    @Test
    @DisplayName("a daemon Pod is pinned by matchFields metadata.name In [node], replacing the required terms")
    void pin() throws Exception {
        ObjectNode spec = json("""
                {"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
                 {"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}]},
                 "preferredDuringSchedulingIgnoredDuringExecution":[]}}}""");
        NodeEligibility.pinTo(spec, "n1");
        assertEquals(json("""
                {"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]}"""),
                spec.at("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution"));
        assertTrue(spec.at("/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution").isArray());
        assertEquals("n1", NodeEligibility.targetNode(json("{\"spec\":" + spec + "}")));
        assertNull(NodeEligibility.targetNode(json("{\"spec\":{}}")));
    }
}
