package io.kapi.endpoint.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ResponseEncoderTest {

    private static ObjectNode sample() {
        ObjectNode o = Json.object();
        o.put("kind", "ConfigMap");
        o.put("apiVersion", "v1");
        o.putObject("metadata").put("name", "x").putObject("labels");
        o.putObject("data").put("b", "true").put("a", "12");
        o.putArray("items").add("one").addObject().put("z", 1);
        return o;
    }

    private static String encode(ResponseTarget t) {
        return new String(ResponseEncoder.encode(sample(), t), StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("JSON is compact and ends with a newline, as Go's json.Encoder writes it")
    void compactJson() {
        assertEquals("{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\",\"labels\":{}},"
                + "\"data\":{\"b\":\"true\",\"a\":\"12\"},\"items\":[\"one\",{\"z\":1}]}\n", encode(ResponseTarget.JSON));
        assertEquals("application/json", ResponseEncoder.contentType(ResponseTarget.JSON));
    }

    @Test
    @DisplayName("pretty JSON is indented by two spaces with Go's separators and no final newline")
    void prettyJson() {
        String out = encode(new ResponseTarget(Format.JSON, null, true));
        assertEquals("{\n  \"kind\": \"ConfigMap\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {\n    \"name\": \"x\",\n"
                + "    \"labels\": {}\n  },\n  \"data\": {\n    \"b\": \"true\",\n    \"a\": \"12\"\n  },\n"
                + "  \"items\": [\n    \"one\",\n    {\n      \"z\": 1\n    }\n  ]\n}", out);
    }

    @Test
    @DisplayName("YAML has sorted keys, quoted look-alike strings and no document marker")
    void yaml() {
        ResponseTarget t = new ResponseTarget(Format.YAML, null, false);
        assertEquals("apiVersion: v1\ndata:\n  a: \"12\"\n  b: \"true\"\nitems:\n- one\n- z: 1\nkind: ConfigMap\n"
                + "metadata:\n  labels: {}\n  name: x\n", encode(t));
        assertEquals("application/yaml", ResponseEncoder.contentType(t));
    }
}
