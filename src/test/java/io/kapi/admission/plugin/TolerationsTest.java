package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TolerationsTest {

    private static List<JsonNode> list(String json) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        Json.MAPPER.readTree(json).forEach(out::add);
        return out;
    }

    private static JsonNode one(String json) throws Exception {
        return Json.MAPPER.readTree(json);
    }

    @Test
    @DisplayName("a toleration another covers is dropped: Exists with no key covers all, an empty effect every effect")
    void merge() throws Exception {
        assertEquals(list("[{\"operator\":\"Exists\"}]"), Tolerations.merge(
                list("[{\"key\":\"foo\",\"operator\":\"Equal\",\"value\":\"bar\",\"effect\":\"NoSchedule\"}]"),
                list("[{\"operator\":\"Exists\"}]")));
        assertEquals(list("[{\"key\":\"foo\",\"operator\":\"Exists\"}]"), Tolerations.merge(
                list("[{\"key\":\"foo\",\"operator\":\"Exists\"}]"),
                list("[{\"key\":\"foo\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}]")));
        assertEquals(list("[{\"key\":\"a\",\"operator\":\"Exists\"},{\"key\":\"b\",\"operator\":\"Exists\"}]"), Tolerations.merge(
                list("[{\"key\":\"a\",\"operator\":\"Exists\"}]"),
                list("[{\"key\":\"a\",\"operator\":\"Exists\"},{\"key\":\"b\",\"operator\":\"Exists\"}]")),
                "an equal toleration is kept once, the first");
    }

    @Test
    @DisplayName("NoExecute with tolerationSeconds covers only shorter bounded tolerations; Equal needs the same value")
    void superset() throws Exception {
        JsonNode five = one("{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":300}");
        assertTrue(Tolerations.isSuperset(five, one("{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":200}")));
        assertFalse(Tolerations.isSuperset(five, one("{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":400}")));
        assertFalse(Tolerations.isSuperset(five, one("{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}")));
        JsonNode equal = one("{\"key\":\"k\",\"operator\":\"Equal\",\"value\":\"v\"}");
        assertTrue(Tolerations.isSuperset(equal, one("{\"key\":\"k\",\"operator\":\"Equal\",\"value\":\"v\",\"effect\":\"NoSchedule\"}")));
        assertFalse(Tolerations.isSuperset(equal, one("{\"key\":\"k\",\"operator\":\"Equal\",\"value\":\"w\"}")));
        assertFalse(Tolerations.isSuperset(equal, one("{\"key\":\"k\",\"operator\":\"Exists\"}")));
    }
}
