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
    /**
     * rule references ({@code schema << 32 | rule}), sorted so precedence is array order: by user name, by
     * group, by service account ({@code namespace:name}, {@code namespace:*} for a namespace's), for everyone
     */
    private final Map<String, long[]> users;
    private final Map<String, long[]> groups;
    private final Map<String, long[]> accounts;
    private final long[] everyone;

    /** @param schemas the schemas to match, in any order; ties of precedence go by name */
    Classifier(List<FlowSchema> schemas) {
        List<FlowSchema> sorted = new ArrayList<>(schemas);
        sorted.sort(Comparator.comparingInt(FlowSchema::precedence).thenComparing(FlowSchema::name));
        this.schemas = List.copyOf(sorted);
        Map<String, Map<String, List<Long>>> keys = new HashMap<>(); // by kind of subject ("*": everyone), then name
        for (int s = 0; s < sorted.size(); s++) {
            List<FlowSchema.SubjectRules> rules = sorted.get(s).rules();
            for (int r = 0; r < rules.size(); r++) {
                for (FlowSchema.Subject subject : rules.get(r).subjects()) {
                    String kind = subject.name().equals("*") && !subject.kind().equals("ServiceAccount") ? "*"
                            : subject.kind();
                    String name = subject.kind().equals("ServiceAccount") ? subject.namespace() + ":" + subject.name()
                            : subject.name();
                    keys.computeIfAbsent(kind, k -> new HashMap<>()).computeIfAbsent(name, k -> new ArrayList<>())
                            .add(((long) s << 32) | r);
                }
            }
        }
        this.users = compiled(keys.get("User"));
        this.groups = compiled(keys.get("Group"));
        this.accounts = compiled(keys.get("ServiceAccount"));
        this.everyone = compiled(keys.get("*")).getOrDefault("*", NONE);
    }

    private static Map<String, long[]> compiled(Map<String, List<Long>> refsByName) {
        Map<String, long[]> compiled = new HashMap<>();
        if (refsByName != null) {
            refsByName.forEach((name, refs) -> compiled.put(name,
                    refs.stream().mapToLong(Long::longValue).distinct().sorted().toArray()));
        }
        return Map.copyOf(compiled);
    }

    List<FlowSchema> schemas() {
        return schemas;
    }

    /** The schema of a request and its flow distinguisher; null when no schema matches. */
    Match classify(RequestInfo info, UserInfo user) {
        int index = index(info, user);
        if (index < 0) {
            return null;
        }
        FlowSchema schema = schemas.get(index);
        return new Match(schema, distinguisher(schema, info, user));
    }

    /** The position in {@link #schemas()} of the request's schema; -1 when none matches. */
    int index(RequestInfo info, UserInfo user) {
        long[] candidates = candidates(user);
        long tried = -1;
        for (long ref : candidates) {
            if (ref == tried) {
                continue;
            }
            tried = ref;
            int index = (int) (ref >>> 32);
            if (schemas.get(index).rules().get((int) ref).rules().matches(info)) {
                return index;
            }
        }
        return -1;
    }

    /** A classified request: its schema and flow distinguisher ("" when the schema has no distinguisher). */
    record Match(FlowSchema schema, String distinguisher) {
    }

    /** The rules that name the user, in precedence order (one array when only one kind of subject names it). */
    private long[] candidates(UserInfo user) {
        List<String> userGroups = user.groups();
        long[][] parts = new long[userGroups.size() + 4][];
        int n = 0;
        parts[n++] = everyone;
        parts[n++] = users.getOrDefault(user.name(), NONE);
        for (String group : userGroups) {
            parts[n++] = groups.getOrDefault(group, NONE);
        }
        if (user.name().startsWith(SA_PREFIX)) {
            String account = user.name().substring(SA_PREFIX.length()); // namespace:name
            int colon = account.indexOf(':');
            if (colon >= 0) {
                parts[n++] = accounts.getOrDefault(account.substring(0, colon + 1) + "*", NONE);
                parts[n++] = accounts.getOrDefault(account, NONE);
            }
        }
        long[] only = null;
        int total = 0;
        int nonEmpty = 0;
        for (int i = 0; i < n; i++) {
            if (parts[i].length > 0) {
                only = parts[i];
                total += parts[i].length;
                nonEmpty++;
            }
        }
        if (nonEmpty <= 1) {
            return only == null ? NONE : only;
        }
        long[] all = new long[total];
        int at = 0;
        for (int i = 0; i < n; i++) {
            System.arraycopy(parts[i], 0, all, at, parts[i].length);
            at += parts[i].length;
        }
        Arrays.sort(all);
        return all;
    }

    /** The flow distinguisher of a request of {@code schema}: "" when the schema has none. */
    static String distinguisher(FlowSchema schema, RequestInfo info, UserInfo user) {
        return switch (schema.distinguisher()) {
            case NONE -> "";
            case BY_USER -> user.name();
            case BY_NAMESPACE -> info.namespace();
        };
    }
}
