package io.kapi.endpoint.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ListsTest {

    private static final ApiResource CONFIGMAPS = new ApiResource("", "v1", "configmaps", "configmap", "ConfigMap", true,
            List.of("get", "list"), List.of(), List.of(), List.of());

    @Test
    @DisplayName("a built-in list leaves its items' apiVersion and kind out without changing the items (they may be the cache's)")
    void itemsUnchanged() throws Exception {
        ObjectNode item = (ObjectNode) Json.MAPPER.readTree(
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}");
        String before = item.toString();
        ObjectNode list = Lists.of(CONFIGMAPS, List.of(item), false);
        assertEquals("{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}", list.path("items").get(0).toString());
        assertEquals(before, item.toString(), "the item itself is unchanged");
        assertEquals("ConfigMapList", list.path("kind").asText());

        ObjectNode typed = Lists.of(CONFIGMAPS, List.of(item), true);
        assertEquals(before, typed.path("items").get(0).toString());
        assertFalse(list.path("items").get(0).has("kind"));
    }
}
