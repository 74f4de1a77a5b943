package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.Json;
import io.kapi.registry.KindValidator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** ConfigMaps and Secrets: keys, the 1 MiB limit, Secret types, and {@code immutable: true}. */
public final class ConfigData {

    /** kube's {@code MaxSecretSize}, shared by ConfigMaps. */
    static final int MAX_SIZE = 1024 * 1024;
    static final String IMMUTABLE_SET = "field is immutable when `immutable` is set";
    private static final ObjectMapper MAPPER = Json.MAPPER;

    private ConfigData() {
    }

    public static final KindValidator CONFIG_MAP = new Rules(ConfigData::configMap, ConfigData::configMapUpdate);
    public static final KindValidator SECRET = new Rules(ConfigData::secret, ConfigData::secretUpdate);

    private static void configMap(ObjectNode cm, Errs e) {
        long size = 0;
        JsonNode binary = GoValues.at(cm, "binaryData");
        for (var en : sorted(GoValues.at(cm, "data")).entrySet()) {
            String key = en.getKey();
            e.each("data[" + key + "]", key, Names.configMapKey(key));
            if (binary.has(key)) {
                e.invalidString("data[" + key + "]", key, "duplicate of key present in binaryData");
            }
            size += en.getValue().asText().getBytes(StandardCharsets.UTF_8).length;
        }
        for (var en : sorted(binary).entrySet()) {
            String key = en.getKey();
            e.each("binaryData[" + key + "]", key, Names.configMapKey(key));
            size += decodedLength(en.getValue().asText());
        }
        if (size > MAX_SIZE) {
            e.tooLong("", MAX_SIZE);
        }
    }

    private static void configMapUpdate(ObjectNode cm, ObjectNode old, Errs e) {
        if (old.path("immutable").asBoolean(false)) {
            if (!cm.path("immutable").asBoolean(false)) {
                e.forbidden("immutable", IMMUTABLE_SET);
            }
            if (!GoValues.same(cm.get("data"), old.get("data"))) {
                e.forbidden("data", IMMUTABLE_SET);
            }
            if (!GoValues.same(cm.get("binaryData"), old.get("binaryData"))) {
                e.forbidden("binaryData", IMMUTABLE_SET);
            }
        }
        configMap(cm, e);
    }

    /** The secret's data as kube sees it after conversion: data, then stringData (decoded) over it. */
    private static Map<String, Integer> data(ObjectNode secret) {
        Map<String, Integer> sizes = new TreeMap<>();
        sorted(GoValues.at(secret, "data")).forEach((k, v) -> sizes.put(k, decodedLength(v.asText())));
        sorted(GoValues.at(secret, "stringData")).forEach((k, v) ->
                sizes.put(k, v.asText().getBytes(StandardCharsets.UTF_8).length));
        return sizes;
    }

    private static void secret(ObjectNode secret, Errs e) {
        Map<String, Integer> data = data(secret);
        long size = 0;
        for (var en : data.entrySet()) {
            e.each("data[" + en.getKey() + "]", en.getKey(), Names.configMapKey(en.getKey()));
            size += en.getValue();
        }
        if (size > MAX_SIZE) {
            e.tooLong("data", MAX_SIZE);
        }
        switch (GoValues.text(secret, "type")) {
            case "kubernetes.io/service-account-token" -> {
                String key = "kubernetes.io/service-account.name";
                if (GoValues.text(GoValues.at(secret, "metadata", "annotations"), key).isEmpty()) {
                    e.required("metadata.annotations[" + key + "]", "");
                }
            }
            case "kubernetes.io/dockercfg" -> dockerConfig(secret, data, ".dockercfg", e);
            case "kubernetes.io/dockerconfigjson" -> dockerConfig(secret, data, ".dockerconfigjson", e);
            case "kubernetes.io/basic-auth" -> {
                if (!data.containsKey("username") && !data.containsKey("password")) {
                    e.required("data[username]", "");
                    e.required("data[password]", "");
                }
            }
            case "kubernetes.io/ssh-auth" -> {
                if (data.getOrDefault("ssh-privatekey", 0) == 0) {
                    e.required("data[ssh-privatekey]", "");
                }
            }
            case "kubernetes.io/tls" -> {
                if (!data.containsKey("tls.crt")) {
                    e.required("data[tls.crt]", "");
                }
                if (!data.containsKey("tls.key")) {
                    e.required("data[tls.key]", "");
                }
            }
            default -> { }
        }
    }

    private static void dockerConfig(ObjectNode secret, Map<String, Integer> data, String key, Errs e) {
        if (!data.containsKey(key)) {
            e.required("data[" + key + "]", "");
            return;
        }
        String content = GoValues.has(GoValues.at(secret, "stringData"), key) ? GoValues.text(secret.get("stringData"), key)
                : decode(GoValues.text(GoValues.at(secret, "data"), key));
        String err = jsonObjectError(content);
        if (err != null) {
            e.invalidString("data[" + key + "]", "<secret contents redacted>", err);
        }
    }

    /** Go's {@code json.Unmarshal} into a map: null when it is a JSON object, else (roughly) Go's error text. */
    private static String jsonObjectError(String content) {
        String s = content.strip();
        if (s.isEmpty()) {
            return "unexpected end of JSON input";
        }
        try {
            JsonNode n = MAPPER.readTree(s);
            if (n == null || n.isObject() || n.isNull()) {
                return null;
            }
            String kind = n.isArray() ? "array" : n.isTextual() ? "string" : n.isNumber() ? "number" : "bool";
            return "json: cannot unmarshal " + kind + " into Go value of type map[string]interface {}";
        } catch (Exception ex) {
            char c = s.charAt(0);
            return "{[\"-0123456789tfn".indexOf(c) < 0
                    ? "invalid character '" + c + "' looking for beginning of value"
                    : "unexpected end of JSON input";
        }
    }

    private static void secretUpdate(ObjectNode secret, ObjectNode old, Errs e) {
        String type = GoValues.text(secret, "type");
        String oldType = GoValues.text(old, "type");
        if (!(type.isEmpty() ? "Opaque" : type).equals(oldType.isEmpty() ? "Opaque" : oldType)) {
            e.invalidString("type", type, Errs.IMMUTABLE);
        }
        if (old.path("immutable").asBoolean(false)) {
            if (!secret.path("immutable").asBoolean(false)) {
                e.forbidden("immutable", IMMUTABLE_SET);
            }
            Map<String, String> now = new LinkedHashMap<>();
            sorted(GoValues.at(secret, "data")).forEach((k, v) -> now.put(k, decode(v.asText())));
            sorted(GoValues.at(secret, "stringData")).forEach((k, v) -> now.put(k, v.asText()));
            Map<String, String> before = new LinkedHashMap<>();
            sorted(GoValues.at(old, "data")).forEach((k, v) -> before.put(k, decode(v.asText())));
            sorted(GoValues.at(old, "stringData")).forEach((k, v) -> before.put(k, v.asText()));
            if (!now.equals(before)) {
                e.forbidden("data", IMMUTABLE_SET);
            }
        }
        secret(secret, e);
    }

    private static Map<String, JsonNode> sorted(JsonNode map) {
        Map<String, JsonNode> out = new TreeMap<>();
        map.properties().forEach(en -> out.put(en.getKey(), en.getValue()));
        return out;
    }

    private static int decodedLength(String base64) {
        try {
            return Base64.getMimeDecoder().decode(base64).length;
        } catch (IllegalArgumentException ex) {
            return base64.length() * 3 / 4;
        }
    }

    private static String decode(String base64) {
        try {
            return new String(Base64.getMimeDecoder().decode(base64), StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException ex) {
            return base64;
        }
    }
}
