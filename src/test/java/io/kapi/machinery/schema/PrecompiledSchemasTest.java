package io.kapi.machinery.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.GroupVersionKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the definitions the build precompiles")
class PrecompiledSchemasTest {

    @Test
    @DisplayName("are the fabric8 file's io.k8s definitions without enums, in the same order")
    void sameAsTheSource() {
        assertNotNull(Schemas.class.getResource(Schemas.PRECOMPILED), "the build wrote " + Schemas.PRECOMPILED);
        Schemas precompiled = Schemas.load(true);
        Schemas source = Schemas.load(false);
        assertEquals(java.util.List.copyOf(source.definitions().keySet()), java.util.List.copyOf(precompiled.definitions().keySet()));
        assertEquals(source.definitions(), precompiled.definitions());
        assertTrue(precompiled.definitions().size() > 500, "io.k8s definitions: " + precompiled.definitions().size());
        assertEquals(source.definitionName(new GroupVersionKind("apps", "v1", "Deployment")),
                precompiled.definitionName(new GroupVersionKind("apps", "v1", "Deployment")));
        assertTrue(precompiled.definitions().keySet().stream().allMatch(n -> n.startsWith("io.k8s.")));
        assertTrue(precompiled.definitions().values().stream().noneMatch(d -> d.toString().contains("\"enum\":[")),
                "no enum keyword is left");
    }
}
