package io.kapi.machinery.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.GroupVersionKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PatchSchemasTest {

    @ParameterizedTest(name = "{0}/{1} {2}")
    @DisplayName("built-in kinds of every group naming style have a view")
    @CsvSource({
            "'', v1, Pod", "apps, v1, Deployment", "batch, v1, CronJob", "autoscaling, v2, HorizontalPodAutoscaler",
            "policy, v1, PodDisruptionBudget", "networking.k8s.io, v1, Ingress",
            "rbac.authorization.k8s.io, v1, ClusterRole", "storage.k8s.io, v1, StorageClass"})
    void builtIns(String group, String version, String kind) {
        assertTrue(Fixtures.SCHEMAS.forKind(new GroupVersionKind(group, version, kind)).isPresent());
    }

    @Test
    @DisplayName("a kind without a definition (a custom resource) has none")
    void customResource() {
        assertTrue(Fixtures.SCHEMAS.forKind(new GroupVersionKind("example.com", "v1", "Widget")).isEmpty());
    }

    @Test
    @DisplayName("views are cached per kind")
    void cached() {
        assertSame(Fixtures.deploymentSchema(), Fixtures.deploymentSchema());
    }

    @Test
    @DisplayName("field metadata follows $ref, items and the patch extensions")
    void metadata() {
        PatchSchema podSpec = Fixtures.deploymentSchema().field("spec").schema().field("template").schema()
                .field("spec").schema();
        PatchSchema.Field volumes = podSpec.field("volumes");
        assertEquals(PatchSchema.Strategy.MERGE, volumes.strategy());
        assertTrue(volumes.retainKeys());
        assertEquals("name", volumes.mergeKey());
        assertEquals("containerPort",
                podSpec.field("containers").schema().field("ports").mergeKey());
        assertEquals(PatchSchema.Strategy.NONE, podSpec.field("tolerations").strategy());
        assertEquals(PatchSchema.Strategy.NONE, podSpec.field("nosuchfield").strategy());
        assertSame(PatchSchema.ANY, podSpec.field("nosuchfield").schema());
    }
}
