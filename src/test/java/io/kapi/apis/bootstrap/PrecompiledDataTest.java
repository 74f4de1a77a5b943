package io.kapi.apis.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.kapi.machinery.Json;
import java.io.InputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.DisplayName;

@DisplayName("the bootstrap data the build writes as JSON")
class PrecompiledDataTest {

    @ParameterizedTest
    @ValueSource(strings = {"cluster-roles.yaml", "bindings-and-roles.yaml", "flowcontrol.yaml"})
    @DisplayName("is the YAML source's data, and is what the hooks read")
    void sameAsTheYaml(String file) throws Exception {
        String path = "/apis/bootstrap/" + file;
        try (InputStream yaml = RbacPolicy.class.getResourceAsStream(path);
             InputStream json = RbacPolicy.class.getResourceAsStream(RbacPolicy.precompiled(path))) {
            assertNotNull(json, "the build wrote " + RbacPolicy.precompiled(path));
            assertEquals(Json.yaml().readTree(yaml), Json.MAPPER.readTree(json));
        }
        try (InputStream yaml = RbacPolicy.class.getResourceAsStream(path)) {
            assertEquals(Json.yaml().readTree(yaml), RbacPolicy.read(file));
        }
    }
}
