package io.kapi.admission.plugin.podsecurity;

import java.util.Optional;
import java.util.Set;

/**
 * One control of the Pod Security Standards, as kube's {@code policy.Check}.
 *
 * @param id kube's check ID; checks run in ID order, baseline ones first
 * @param level the level from which it applies
 * @param since the first {@code 1.x} version that has it
 * @param overrides the baseline check IDs it replaces at the restricted level
 * @param body what it finds wrong at a given (effective) minor version
 */
record Check(String id, Level level, int since, Set<String> overrides, Body body) {

    @FunctionalInterface
    interface Body {
        Optional<Violation> check(PodView pod, int minor);
    }

    static Check baseline(String id, Body body) {
        return baseline(id, 0, body);
    }

    static Check baseline(String id, int since, Body body) {
        return new Check(id, Level.BASELINE, since, Set.of(), body);
    }

    static Check restricted(String id, int since, Set<String> overrides, Body body) {
        return new Check(id, Level.RESTRICTED, since, overrides, body);
    }
}
