package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.Crd;
import io.kapi.machinery.GoStrings;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's naming controller: a CRD's requested names are accepted unless another CRD of the same group
 * already accepted one of them (plural, singular, short names, kind or list kind); the first conflict
 * found is the {@code NamesAccepted=False} reason ({@code PluralConflict}: {@code "crontabs" is already in use}).
 */
final class CrdNames {

    /** The outcome: the accepted names to publish, and the NamesAccepted condition. */
    record Decision(JsonNode accepted, boolean ok, String reason, String message) {
    }

    private CrdNames() {
    }

    static Decision decide(Crd crd, List<Crd> all) {
        Set<String> plurals = new HashSet<>();
        Set<String> shortNames = new HashSet<>();
        Set<String> kinds = new HashSet<>();
        for (Crd other : all) {
            if (other.name().equals(crd.name()) || !other.group().equals(crd.group())) {
                continue;
            }
            JsonNode a = other.acceptedNames();
            plurals.add(a.path("plural").asText());
            plurals.add(a.path("singular").asText());
            a.path("shortNames").forEach(n -> shortNames.add(n.asText()));
            kinds.add(a.path("kind").asText());
            kinds.add(a.path("listKind").asText());
        }
        JsonNode requested = crd.names();
        String conflict = conflict(requested, plurals, shortNames, kinds);
        if (conflict == null) {
            return new Decision(requested.deepCopy(), true, "NoConflicts", "no conflicts found");
        }
        String[] parts = conflict.split(" ", 2);
        return new Decision(crd.acceptedNames().deepCopy(), false, parts[0], parts[1]);
    }

    private static String conflict(JsonNode names, Set<String> plurals, Set<String> shortNames, Set<String> kinds) {
        String plural = names.path("plural").asText();
        if (plurals.contains(plural)) {
            return "PluralConflict " + inUse(plural);
        }
        String singular = names.path("singular").asText();
        if (plurals.contains(singular)) {
            return "SingularConflict " + inUse(singular);
        }
        for (JsonNode s : names.path("shortNames")) {
            if (shortNames.contains(s.asText())) {
                return "ShortNamesConflict " + inUse(s.asText());
            }
        }
        String kind = names.path("kind").asText();
        if (kinds.contains(kind)) {
            return "KindConflict " + inUse(kind);
        }
        String listKind = names.path("listKind").asText();
        if (kinds.contains(listKind)) {
            return "ListKindConflict " + inUse(listKind);
        }
        return null;
    }

    private static String inUse(String name) {
        return GoStrings.quote(name) + " is already in use";
    }

    /** Whether {@code accepted} names something (a CRD whose names were never accepted has empty ones). */
    static boolean present(JsonNode accepted) {
        return accepted instanceof ObjectNode o && !o.path("plural").asText("").isEmpty()
                && !o.path("kind").asText("").isEmpty();
    }
}
