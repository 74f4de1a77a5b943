package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@code pod-template-hash} of a Deployment's template, shaped as kube's {@code ComputeHash}: FNV-32a of
 * the template, then of the collision count (four little-endian bytes and four zeros) when there is one,
 * the decimal of the sum rendered with {@code rand.SafeEncodeString} (each digit mapped into kube's 27
 * consonants and digits), so names look like kube's ({@code web-7d4b9c6f8}).
 *
 * <p>The value cannot equal kube's: kube hashes Go's {@code spew} dump of its {@code PodTemplateSpec} struct
 * (every Go field, in Go's order, with Go's type names), which a JSON tree does not have. Kapi hashes the
 * template's canonical JSON (keys sorted, nulls dropped). Nothing depends on the two agreeing: kube's
 * deployment controller finds a Deployment's ReplicaSet by comparing templates without the hash label
 * ({@link #equalIgnoringHash}), as this one does, so a kube-controller-manager taking over adopts Kapi's.
 */
final class PodTemplateHash {

    static final String LABEL = "pod-template-hash";
    private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";
    private static final int FNV_OFFSET = 0x811c9dc5;
    private static final int FNV_PRIME = 0x01000193;

    private PodTemplateHash() {
    }

    /** @param collisionCount the Deployment's {@code status.collisionCount}, or null */
    static String of(JsonNode template, Integer collisionCount) {
        int hash = fnv(FNV_OFFSET, canonical(template).getBytes(StandardCharsets.UTF_8));
        if (collisionCount != null) {
            int c = collisionCount;
            hash = fnv(hash, new byte[] {(byte) c, (byte) (c >>> 8), (byte) (c >>> 16), (byte) (c >>> 24), 0, 0, 0, 0});
        }
        return safeEncode(Integer.toUnsignedString(hash));
    }

    /** FNV-1a, 32 bits, continuing from {@code hash}. */
    static int fnv(int hash, byte[] data) {
        for (byte b : data) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return hash;
    }

    /** apimachinery's {@code rand.SafeEncodeString}. */
    static String safeEncode(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            b.append(ALPHANUMS.charAt(s.charAt(i) % ALPHANUMS.length()));
        }
        return b.toString();
    }

    /** kube's {@code EqualIgnoreHash}: the templates equal once the hash label is gone from both. */
    static boolean equalIgnoringHash(JsonNode a, JsonNode b) {
        return normalized(a).equals(normalized(b));
    }

    private static JsonNode normalized(JsonNode template) {
        ObjectNode copy = template.isObject() ? ((ObjectNode) template).deepCopy() : io.kapi.machinery.Json.object();
        JsonNode labels = copy.path("metadata").path("labels");
        if (labels.isObject()) {
            ((ObjectNode) labels).remove(LABEL);
        }
        return withoutEmpty(copy);
    }

    /** Nulls, empty maps and empty lists dropped: Go's semantic equality takes nil and empty alike. */
    private static JsonNode withoutEmpty(JsonNode node) {
        if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            for (Iterator<Map.Entry<String, JsonNode>> it = o.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = withoutEmpty(e.getValue());
                if (v.isNull() || (v.isContainerNode() && v.isEmpty())) {
                    it.remove();
                }
            }
        } else if (node.isArray()) {
            node.forEach(PodTemplateHash::withoutEmpty);
        }
        return node;
    }

    /** The template as JSON with sorted keys and without nulls or empty containers. */
    static String canonical(JsonNode template) {
        StringBuilder b = new StringBuilder();
        write(withoutEmpty(template.deepCopy()), b);
        return b.toString();
    }

    private static void write(JsonNode node, StringBuilder b) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            b.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(new com.fasterxml.jackson.databind.node.TextNode(names.get(i)).toString()).append(':');
                write(node.get(names.get(i)), b);
            }
            b.append('}');
        } else if (node.isArray()) {
            b.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                write(node.get(i), b);
            }
            b.append(']');
        } else {
            b.append(node.toString());
        }
    }
}
