package io.kapi.e2e.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Turns a valid request into a hostile one, from one seeded {@link Random}: none to three mutations of its
 * body (bytes, JSON structure, wrong types, deep nesting, alias bombs, patch bombs), headers (Content-Type,
 * Accept), query (selectors, versions, options), path (names, resources), method, and framing (malformed
 * chunked encoding on a raw HTTP/1.1 connection). One in ten requests goes out unmutated.
 */
final class Mutator {

    private static final String[] WRONG_VALUES = {"\"x\"", "1", "-1", "1e400", "0.5", "[]", "{}", "null", "true",
            "[1,\"a\",{}]", "{\"a\":{\"b\":[]}}", "\"\\u0000\"", "\"" + "é".repeat(300) + "\"", "-9223372036854775809",
            "\"2024-13-45T99:99:99Z\"", "\"1.5.5Gi\""};
    private static final String[] CONTENT_TYPES = {";;;", "", "application/json;;", "text/plain", "application/json; charset=latin1",
            "application/yaml", "application/json", "application/vnd.kubernetes.protobuf", "application/merge-patch+json",
            "application/apply-patch+yaml", "application/json-patch+json", "application/strategic-merge-patch+json",
            "*/*", "application/", "/json", "application/json;as=Table", "multipart/form-data; boundary=x",
            "application/" + "x".repeat(3000)};
    private static final String[] ACCEPTS = {";;", "", "application/json;q=abc", "*/*;as=Table", "application/json;as=Table",
            "application/json;as=Table;v=v1;g=meta.k8s.io", "application/json;as=Table;v=v1beta1;g=meta.k8s.io",
            "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io", "application/yaml;stream=watch",
            "application/vnd.kubernetes.protobuf;stream=watch", "text/html", "application/json, */*;q=0",
            "application/json;pretty=1", "image/png", "a/b/c", "application/json;g=x;v=y;as=z"};
    private static final String[] QUERY = {"limit=-1", "limit=abc", "limit=99999999999999999999", "continue=garbage",
            "continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTF9", "resourceVersion=abc", "resourceVersion=0",
            "resourceVersion=999999999", "resourceVersionMatch=Exact", "resourceVersionMatch=NotOlderThan&resourceVersion=1",
            "labelSelector=a%20in%20(", "labelSelector=%21%21%21", "labelSelector=a%3D%3Db", "fieldSelector=spec.x%3Dy",
            "fieldSelector=metadata.name%3D%3D", "fieldSelector=%3D", "timeoutSeconds=-5", "timeoutSeconds=x", "watch=maybe",
            "dryRun=All", "dryRun=Some", "fieldManager=" + "m".repeat(200), "fieldValidation=Strict", "fieldValidation=x",
            "propagationPolicy=Sideways", "gracePeriodSeconds=x", "gracePeriodSeconds=-1", "pretty=true", "force=maybe",
            "allowWatchBookmarks=x", "sendInitialEvents=true", "includeObject=None", "orphanDependents=x", "%zz=1", "a=%"};
    private static final String[] NAMES = {"", "%2F", "..", "a%00b", "A_B", "x".repeat(300), "%E2%98%83", "-a-",
            "fixture/x", "fixture/status/x", "fixture%20x", "*", "~", "fixture.."};
    private static final String[] METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"};

    private final Random random;

    Mutator(Random random) {
        this.random = random;
    }

    FuzzRequest mutate(FuzzRequest seed) {
        if (random.nextInt(10) == 0) {
            return seed;
        }
        FuzzRequest r = seed;
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            r = switch (random.nextInt(14)) {
                case 0, 1, 2 -> wrongType(r);
                case 3, 4 -> bytes(r);
                case 5 -> special(r);
                case 6 -> contentType(r);
                case 7 -> accept(r);
                case 8, 9 -> query(r);
                case 10 -> path(r);
                case 11 -> method(r);
                case 12 -> framing(r);
                default -> structure(r);
            };
        }
        return r;
    }

    private <T> T pick(T[] values) {
        return values[random.nextInt(values.length)];
    }

    /** Some value somewhere in a JSON body replaced by one of another type. */
    private FuzzRequest wrongType(FuzzRequest r) {
        JsonNode tree = tree(r.body());
        if (tree == null || !tree.isContainerNode()) {
            return bytes(r);
        }
        String value = pick(WRONG_VALUES);
        replaceRandom(tree, Seeds.parse(value));
        return r.with(r.method(), r.pathAndQuery(), r.headers(), Seeds.bytes(tree.toString()), r.framing(), "type:" + value);
    }

    /** A field added, removed or duplicated, or the body's top-level fields made non-objects. */
    private FuzzRequest structure(FuzzRequest r) {
        JsonNode tree = tree(r.body());
        if (!(tree instanceof ObjectNode obj)) {
            return bytes(r);
        }
        String field = List.of("metadata", "spec", "status", "data", "apiVersion", "kind", "items", "target").get(random.nextInt(8));
        String what;
        switch (random.nextInt(4)) {
            case 0 -> {
                obj.remove(field);
                what = "remove:" + field;
            }
            case 1 -> {
                obj.set(field, Seeds.parse(pick(WRONG_VALUES)));
                what = "set:" + field;
            }
            case 2 -> {
                obj.put("unknown" + random.nextInt(100), "x");
                what = "unknown-field";
            }
            default -> {
                String text = obj.toString();
                String dup = text.substring(0, text.length() - 1) + ",\"metadata\":{\"name\":\"dup\"}}";
                return r.with(r.method(), r.pathAndQuery(), r.headers(), Seeds.bytes(dup), r.framing(), "duplicate-key");
            }
        }
        return r.with(r.method(), r.pathAndQuery(), r.headers(), Seeds.bytes(obj.toString()), r.framing(), what);
    }

    /** Bytes flipped, inserted, removed, or the body cut short. */
    private FuzzRequest bytes(FuzzRequest r) {
        byte[] b = r.body().clone();
        String what;
        if (b.length == 0 || random.nextInt(5) == 0) {
            b = new byte[random.nextInt(64)];
            random.nextBytes(b);
            what = "random-bytes";
        } else {
            switch (random.nextInt(3)) {
                case 0 -> {
                    for (int i = 0; i < 1 + random.nextInt(4); i++) {
                        b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                    }
                    what = "bitflip";
                }
                case 1 -> {
                    b = java.util.Arrays.copyOf(b, random.nextInt(b.length));
                    what = "truncate";
                }
                default -> {
                    int at = random.nextInt(b.length);
                    byte[] junk = Seeds.bytes(List.of("{", "[", "\"", "\\", ":", ",", "}", "]", "&a ", "*a", "\u0000",
                            "\n- ", "---\n", "\t", "\uFFFD").get(random.nextInt(15)));
                    byte[] out = new byte[b.length + junk.length];
                    System.arraycopy(b, 0, out, 0, at);
                    System.arraycopy(junk, 0, out, at, junk.length);
                    System.arraycopy(b, at, out, at + junk.length, b.length - at);
                    b = out;
                    what = "insert";
                }
            }
        }
        return r.with(r.method(), r.pathAndQuery(), r.headers(), b, r.framing(), what);
    }

    /** The bodies of issue 15: alias bombs, deep nesting, wrong top-level types, patch bombs. */
    private FuzzRequest special(FuzzRequest r) {
        int which = random.nextInt(9);
        String body = switch (which) {
            case 0 -> aliasBomb();
            case 1 -> "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"deep\"},\"x\":"
                    + "[".repeat(900) + "]".repeat(900) + "}";
            case 2 -> "{\"metadata\":" + "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000) + "}";
            case 3 -> "x: " + "[".repeat(100_000) + "]".repeat(100_000);
            case 4 -> "x:\n" + "- ".repeat(50_000) + "1";
            case 5 -> "{\"metadata\":\"x\",\"spec\":\"x\"}";
            case 6 -> copyBomb();
            case 7 -> "[" + "{\"op\":\"test\",\"path\":\"/metadata\",\"value\":{}},".repeat(10_001) + "{}]";
            default -> "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + "n".repeat(100_000) + "\"}}";
        };
        Map<String, String> headers = new LinkedHashMap<>(r.headers());
        if (which == 0 || which == 3 || which == 4) {
            headers.put("Content-Type", r.method().equals("PATCH") ? "application/apply-patch+yaml" : "application/yaml");
        }
        return r.with(r.method(), r.pathAndQuery(), headers, Seeds.bytes(body), r.framing(), "special:" + which);
    }

    private static String aliasBomb() {
        StringBuilder b = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n");
        b.append("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        char previous = 'a';
        for (char c = 'b'; c <= 'i'; c++) {
            b.append(c).append(": &").append(c).append(" [").append(String.join(",", java.util.Collections.nCopies(9, "*" + previous)))
                    .append("]\n");
            previous = c;
        }
        return b.toString();
    }

    private static String copyBomb() {
        StringBuilder b = new StringBuilder("[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"d\":\""
                + "y".repeat(1000) + "\"}}");
        for (int i = 0; i < 40; i++) {
            b.append(",{\"op\":\"copy\",\"from\":\"/metadata/annotations\",\"path\":\"/metadata/annotations/c").append(i).append("\"}");
        }
        return b.append("]").toString();
    }

    private FuzzRequest contentType(FuzzRequest r) {
        Map<String, String> headers = new LinkedHashMap<>(r.headers());
        String type = pick(CONTENT_TYPES);
        headers.put("Content-Type", type);
        return r.with(r.method(), r.pathAndQuery(), headers, r.body(), r.framing(), "content-type:" + abbreviate(type));
    }

    private FuzzRequest accept(FuzzRequest r) {
        Map<String, String> headers = new LinkedHashMap<>(r.headers());
        String accept = pick(ACCEPTS);
        headers.put("Accept", accept);
        return r.with(r.method(), r.pathAndQuery(), headers, r.body(), r.framing(), "accept:" + accept);
    }

    private FuzzRequest query(FuzzRequest r) {
        String q = pick(QUERY);
        String path = r.pathAndQuery() + (r.pathAndQuery().contains("?") ? "&" : "?") + q;
        return r.with(r.method(), path, r.headers(), r.body(), r.framing(), "query:" + abbreviate(q));
    }

    private FuzzRequest path(FuzzRequest r) {
        String path = r.pathAndQuery();
        int q = path.indexOf('?');
        String query = q < 0 ? "" : path.substring(q);
        String bare = q < 0 ? path : path.substring(0, q);
        String mutated = switch (random.nextInt(4)) {
            case 0 -> bare.substring(0, bare.lastIndexOf('/') + 1) + pick(NAMES);
            case 1 -> bare + "/" + pick(NAMES);
            case 2 -> bare.replace("/v1/", "/v9/");
            default -> bare.replace("configmaps", "configmapz").replace("pods", "pod").replace("namespaces/fuzz", "namespaces/" + pick(NAMES));
        };
        return r.with(r.method(), mutated + query, r.headers(), r.body(), r.framing(), "path");
    }

    private FuzzRequest method(FuzzRequest r) {
        String m = pick(METHODS);
        return r.with(m, r.pathAndQuery(), r.headers(), m.equals("GET") || m.equals("HEAD") ? new byte[0] : r.body(),
                r.framing(), "method:" + m);
    }

    private FuzzRequest framing(FuzzRequest r) {
        FuzzRequest.Framing[] bad = {FuzzRequest.Framing.BAD_CHUNK_SIZE, FuzzRequest.Framing.MISSING_LAST_CHUNK,
                FuzzRequest.Framing.LENGTH_AND_CHUNKED, FuzzRequest.Framing.SHORT_LENGTH};
        FuzzRequest.Framing f = pick(bad);
        String method = r.method().equals("GET") || r.method().equals("HEAD") ? "POST" : r.method();
        return r.with(method, r.pathAndQuery(), r.headers(), r.body(), f, "framing:" + f);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    private static JsonNode tree(byte[] body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (Exception e) {
            return null;
        }
    }

    /** Replaces a node chosen at random (depth-first, each container's children equally likely) with {@code value}. */
    private void replaceRandom(JsonNode tree, JsonNode value) {
        JsonNode at = tree;
        while (true) {
            List<Object> keys = new ArrayList<>();
            if (at instanceof ObjectNode obj) {
                obj.fieldNames().forEachRemaining(keys::add);
            } else if (at instanceof ArrayNode arr) {
                for (int i = 0; i < arr.size(); i++) {
                    keys.add(i);
                }
            }
            if (keys.isEmpty()) {
                return;
            }
            Object key = keys.get(random.nextInt(keys.size()));
            JsonNode child = key instanceof String s ? at.get(s) : at.get((Integer) key);
            if (!child.isContainerNode() || child.isEmpty() || random.nextInt(3) == 0) {
                if (at instanceof ObjectNode obj) {
                    obj.set((String) key, value);
                } else {
                    ((ArrayNode) at).set((Integer) key, value);
                }
                return;
            }
            at = child;
        }
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
