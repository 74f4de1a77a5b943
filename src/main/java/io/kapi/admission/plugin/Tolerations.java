package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's toleration merge ({@code pkg/util/tolerations/merge}): two lists become one in which no
 * toleration is kept that another one already covers (a superset tolerates every taint it does).
 */
final class Tolerations {

    private Tolerations() {
    }

    /** {@code first} then {@code second}, without the tolerations another one of them covers; equal ones keep the first. */
    static List<JsonNode> merge(List<JsonNode> first, List<JsonNode> second) {
        List<JsonNode> all = new ArrayList<>(first);
        all.addAll(second);
        List<JsonNode> merged = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            JsonNode t = all.get(i);
            if (covered(t, merged, all.subList(i + 1, all.size()))) {
                continue;
            }
            merged.add(t);
        }
        return merged;
    }

    private static boolean covered(JsonNode t, List<JsonNode> kept, List<JsonNode> later) {
        for (JsonNode k : kept) {
            if (isSuperset(k, t)) {
                return true;
            }
        }
        for (JsonNode l : later) {
            if (!same(t, l) && isSuperset(l, t)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code ss} tolerates every taint {@code t} does. */
    static boolean isSuperset(JsonNode ss, JsonNode t) {
        if (same(ss, t)) {
            return true;
        }
        // an empty key with Exists matches every key
        if (!text(t, "key").equals(text(ss, "key")) && (!text(ss, "key").isEmpty() || !text(ss, "operator").equals("Exists"))) {
            return false;
        }
        // an empty effect matches every effect
        if (!text(t, "effect").equals(text(ss, "effect")) && !text(ss, "effect").isEmpty()) {
            return false;
        }
        if (text(ss, "effect").equals("NoExecute") && ss.hasNonNull("tolerationSeconds")
                && (!t.hasNonNull("tolerationSeconds") || t.get("tolerationSeconds").asLong() > ss.get("tolerationSeconds").asLong())) {
            return false;
        }
        return switch (text(ss, "operator")) {
            case "Equal", "" -> text(t, "operator").equals("Equal") && text(t, "value").equals(text(ss, "value"));
            case "Exists" -> true;
            default -> false;
        };
    }

    /** Semantic equality: the same key, operator, value, effect and tolerationSeconds. */
    private static boolean same(JsonNode a, JsonNode b) {
        return text(a, "key").equals(text(b, "key")) && text(a, "operator").equals(text(b, "operator"))
                && text(a, "value").equals(text(b, "value")) && text(a, "effect").equals(text(b, "effect"))
                && seconds(a).equals(seconds(b));
    }

    private static String text(JsonNode t, String field) {
        return t.path(field).asText("");
    }

    private static String seconds(JsonNode t) {
        return t.hasNonNull("tolerationSeconds") ? Long.toString(t.get("tolerationSeconds").asLong()) : "";
    }
}
