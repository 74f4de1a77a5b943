package io.kapi.apis.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import io.kapi.harness.StoreCalls;

class SystemObjectsTest {

    private static final String FLOWCONTROL = "flowcontrol.apiserver.k8s.io";

    private final BootstrapFixture fixture = new BootstrapFixture();

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    @DisplayName("system priority classes are created with kube's values and descriptions, twice without error")
    void priorityClasses() {
        SystemPriorityClasses hook = new SystemPriorityClasses(fixture.client);
        assertEquals("scheduling/bootstrap-system-priority-classes", hook.name());
        hook.run();
        hook.run();
        ObjectNode node = fixture.get("scheduling.k8s.io", "priorityclasses", "", "system-node-critical");
        assertEquals(2000001000, node.path("value").asInt());
        assertEquals("Used for system critical pods that must not be moved from their current node.",
                node.path("description").asText());
        ObjectNode cluster = fixture.get("scheduling.k8s.io", "priorityclasses", "", "system-cluster-critical");
        assertEquals(2000000000, cluster.path("value").asInt());
        assertEquals(2, fixture.list("scheduling.k8s.io", "priorityclasses").size());
    }

    @Test
    @DisplayName("the default flow schemas and priority levels exist, annotated for auto-update")
    void flowControlDefaults() {
        FlowControlBootstrap hook = new FlowControlBootstrap(fixture.client);
        assertEquals("priority-and-fairness-config-producer", hook.name());
        hook.run();
        List<String> schemas = fixture.list(FLOWCONTROL, "flowschemas").stream().map(o -> ObjectMeta.of(o).name()).sorted().toList();
        assertEquals(List.of("catch-all", "endpoint-controller", "exempt", "global-default", "kube-controller-manager",
                "kube-scheduler", "kube-system-service-accounts", "probes", "service-accounts", "system-leader-election",
                "system-node-high", "system-nodes", "workload-leader-election"), schemas);
        List<String> levels = fixture.list(FLOWCONTROL, "prioritylevelconfigurations").stream()
                .map(o -> ObjectMeta.of(o).name()).sorted().toList();
        assertEquals(List.of("catch-all", "exempt", "global-default", "leader-election", "node-high", "system",
                "workload-high", "workload-low"), levels);
        ObjectNode exempt = fixture.get(FLOWCONTROL, "flowschemas", "", "exempt");
        assertEquals("true", exempt.path("metadata").path("annotations").path(FlowControlBootstrap.AUTOUPDATE_SPEC).asText());
        assertEquals(1, exempt.path("spec").path("matchingPrecedence").asInt());
        assertEquals("system:masters", exempt.path("spec").path("rules").path(0).path("subjects").path(0)
                .path("group").path("name").asText());
        assertEquals("False", exempt.path("status").path("conditions").path(0).path("status").asText(), "Dangling");
        assertEquals("Dangling", exempt.path("status").path("conditions").path(0).path("type").asText());
        ObjectNode workloadLow = fixture.get(FLOWCONTROL, "prioritylevelconfigurations", "", "workload-low");
        assertEquals(100, workloadLow.path("spec").path("limited").path("nominalConcurrencyShares").asInt());
        assertEquals(90, workloadLow.path("spec").path("limited").path("lendablePercent").asInt());
    }

    @Test
    @DisplayName("restart restores a mandatory spec always, a suggested one only while autoupdate-spec is true")
    void flowControlEnsureRules() {
        FlowControlBootstrap hook = new FlowControlBootstrap(fixture.client);
        hook.run();
        var levels = fixture.store(FLOWCONTROL, "prioritylevelconfigurations");
        Stores.update(levels, "", "catch-all", o -> {
            ((ObjectNode) o.path("metadata").path("annotations")).put(FlowControlBootstrap.AUTOUPDATE_SPEC, "false");
            return o;
        });
        // a mandatory level's spec is fixed (kube's ValidateIfMandatoryPriorityLevelConfigurationObject)
        ApiException fixed = assertThrows(ApiException.class, () -> Stores.update(levels, "", "catch-all", o -> {
            ((ObjectNode) o.path("spec").path("limited")).put("nominalConcurrencyShares", 50);
            return o;
        }));
        assertEquals(422, fixed.code());
        Stores.update(levels, "", "workload-low", o -> {
            ((ObjectNode) o.path("spec").path("limited")).put("nominalConcurrencyShares", 7);
            ((ObjectNode) o.path("metadata").path("annotations")).put(FlowControlBootstrap.AUTOUPDATE_SPEC, "false");
            return o;
        });
        Stores.update(levels, "", "system", o -> {
            ((ObjectNode) o.path("spec").path("limited")).put("nominalConcurrencyShares", 8);
            return o;
        });
        fixture.store(FLOWCONTROL, "flowschemas").delete("", "probes", io.kapi.registry.DeleteOptions.DEFAULT);
        hook.run();
        ObjectNode catchAll = levels.get("", "catch-all");
        assertEquals(5, catchAll.path("spec").path("limited").path("nominalConcurrencyShares").asInt());
        assertEquals("true", catchAll.path("metadata").path("annotations").path(FlowControlBootstrap.AUTOUPDATE_SPEC).asText());
        assertEquals(7, levels.get("", "workload-low").path("spec").path("limited").path("nominalConcurrencyShares").asInt());
        assertEquals(30, levels.get("", "system").path("spec").path("limited").path("nominalConcurrencyShares").asInt());
        assertTrue(fixture.store(FLOWCONTROL, "flowschemas").find("", "probes").isPresent(), "re-created");
    }
}
