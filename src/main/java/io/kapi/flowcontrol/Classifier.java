package io.kapi.flowcontrol;

import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The FlowSchemas compiled for matching: a request goes to the first schema, in matchingPrecedence
 * order then by name, one of whose rules names the request's user (by name, group or service account,
 * {@code *} for all) and matches the request (kube's {@code matchesFlowSchema}).
 *
 * <p>The rules are indexed by subject, so a request only tests the rules that name its user, one of its
 * groups, its service account (or that account's namespace), or everyone: however many schemas and
 * subjects there are, classifying costs a few hash look-ups plus the rules that concern the user.
 * Immutable; one is compiled for each configuration.
 */
final class Classifier {

    private static final String SA_PREFIX = "system:serviceaccount:";
    private static final long[] NONE = new long[0];

    private final List<FlowSchema> schemas;
    /** rule references ({@code schema << 32 | rule}) by subject key; sorted so precedence is array order */
    private final Map<String, long[]> index;
    private final long[] everyone;

    /** @param schemas the schemas to match, in any order; ties of precedence go by name */
    Classifier(List<FlowSchema> schemas) {
        List<FlowSchema> sorted = new ArrayList<>(schemas);
        sorted.sort(Comparator.comparingInt(FlowSchema::precedence).thenComparing(FlowSchema::name));
        this.schemas = List.copyOf(sorted);
        Map<String, List<Long>> keys = new HashMap<>();
        for (int s = 0; s < sorted.size(); s++) {
            List<FlowSchema.SubjectRules> rules = sorted.get(s).rules();
            for (int r = 0; r < rules.size(); r++) {
                for (FlowSchema.Subject subject : rules.get(r).subjects()) {
                    keys.computeIfAbsent(key(subject), k -> new ArrayList<>()).add(((long) s << 32) | r);
                }
            }
        }
        Map<String, long[]> compiled = new HashMap<>();
        keys.forEach((k, refs) -> compiled.put(k, refs.stream().mapToLong(Long::longValue).distinct().sorted().toArray()));
        this.everyone = compiled.getOrDefault("*", NONE);
        compiled.remove("*");
        this.index = Map.copyOf(compiled);
    }

    List<FlowSchema> schemas() {
        return schemas;
    }

    /** The schema of a request and its flow distinguisher; null when no schema matches. */
    Match classify(RequestInfo info, UserInfo user) {
        long[] candidates = candidates(user);
        long tried = -1;
        for (long ref : candidates) {
            if (ref == tried) {
                continue;
            }
            tried = ref;
            FlowSchema schema = schemas.get((int) (ref >>> 32));
            if (schema.rules().get((int) ref).rules().matches(info)) {
                return new Match(schema, distinguisher(schema, info, user));
            }
        }
        return null;
    }

    /** A classified request: its schema and flow distinguisher ("" when the schema has no distinguisher). */
    record Match(FlowSchema schema, String distinguisher) {
    }

    private long[] candidates(UserInfo user) {
        List<long[]> found = new ArrayList<>(4);
        int total = add(found, everyone, 0);
        total = add(found, index.getOrDefault("u:" + user.name(), NONE), total);
        for (String group : user.groups()) {
            total = add(found, index.getOrDefault("g:" + group, NONE), total);
        }
        if (user.name().startsWith(SA_PREFIX)) {
            String rest = user.name().substring(SA_PREFIX.length());
            int colon = rest.indexOf(':');
            if (colon >= 0) {
                total = add(found, index.getOrDefault("sa:" + rest.substring(0, colon) + ":*", NONE), total);
                total = add(found, index.getOrDefault("sa:" + rest, NONE), total);
            }
        }
        if (found.size() == 1) {
            return found.getFirst();
        }
        long[] all = new long[total];
        int at = 0;
        for (long[] refs : found) {
            System.arraycopy(refs, 0, all, at, refs.length);
            at += refs.length;
        }
        Arrays.sort(all);
        return all;
    }

    private static int add(List<long[]> found, long[] refs, int total) {
        if (refs.length > 0) {
            found.add(refs);
        }
        return total + refs.length;
    }

    private static String key(FlowSchema.Subject subject) {
        return switch (subject.kind()) {
            case "User" -> subject.name().equals("*") ? "*" : "u:" + subject.name();
            case "Group" -> subject.name().equals("*") ? "*" : "g:" + subject.name();
            default -> "sa:" + subject.namespace() + ":" + subject.name();
        };
    }

    private static String distinguisher(FlowSchema schema, RequestInfo info, UserInfo user) {
        return switch (schema.distinguisher()) {
            case NONE -> "";
            case BY_USER -> user.name();
            case BY_NAMESPACE -> info.namespace();
        };
    }
}
