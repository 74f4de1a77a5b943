package io.kapi.admission.plugin.podsecurity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Evaluates a pod against a level and version of the standards, as kube's check registry: the checks that
 * exist at that version, baseline ones and then restricted ones, each group in check-ID order; at the
 * restricted level a restricted check replaces the baseline checks it overrides.
 */
public final class Evaluator {

    private final List<Check> ordered;

    public Evaluator() {
        Comparator<Check> byId = Comparator.comparing(Check::id);
        ordered = Stream.concat(
                BaselineChecks.ALL.stream().sorted(byId),
                RestrictedChecks.ALL.stream().sorted(byId)).toList();
    }

    /** What the pod violates at {@code lv}; empty when it is allowed (always at privileged). */
    public List<Violation> evaluate(LevelVersion lv, PodView pod) {
        if (lv.level() == Level.PRIVILEGED) {
            return List.of();
        }
        int minor = lv.effectiveMinor();
        Set<String> overridden = new HashSet<>();
        if (lv.level() == Level.RESTRICTED) {
            ordered.stream().filter(c -> c.level() == Level.RESTRICTED && c.since() <= minor)
                    .forEach(c -> overridden.addAll(c.overrides()));
        }
        List<Violation> found = new ArrayList<>();
        for (Check c : ordered) {
            boolean applies = c.since() <= minor && !overridden.contains(c.id())
                    && (c.level() == Level.BASELINE || lv.level() == Level.RESTRICTED);
            if (applies) {
                c.body().check(pod, minor).ifPresent(found::add);
            }
        }
        return found;
    }
}
