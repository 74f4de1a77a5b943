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

    @Test
    @DisplayName("are parsed one by one as they are used; kinds are known without parsing")
    void parsedOnUse() {
        Schemas schemas = Schemas.load(true);
        LazyDefinitions defs = (LazyDefinitions) schemas.definitions();
        long parsed = defs.byName().values().stream().filter(LazyDefinitions.Definition::isParsed).count();
        assertTrue(parsed < 100, "loading parses only the project's own few definitions, not the built-in ones: " + parsed);
        assertEquals("io.k8s.api.apps.v1.Deployment",
                schemas.definitionName(new GroupVersionKind("apps", "v1", "Deployment")).orElseThrow());
        assertTrue(defs.byName().get("io.k8s.api.apps.v1.Deployment").kind != null);
        assertEquals(false, defs.byName().get("io.k8s.api.apps.v1.Deployment").isParsed());
        assertEquals("Deployment", schemas.definition("io.k8s.api.apps.v1.Deployment").path("x-fabric8-info").path("Kind").asText());
        assertTrue(defs.byName().get("io.k8s.api.apps.v1.Deployment").isParsed());
        assertEquals(false, defs.byName().get("io.k8s.api.apps.v1.DeploymentSpec").isParsed(), "its parts wait for their own use");
    }
}
