package io.kapi.admission.plugin.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The levels a namespace's pods are enforced, audited and warned at, from its
 * {@code pod-security.kubernetes.io/<mode>[-version]} labels over the configured defaults.
 */
public record NamespacePolicy(LevelVersion enforce, LevelVersion audit, LevelVersion warn) {

    public static final String PREFIX = "pod-security.kubernetes.io/";
    public static final NamespacePolicy PRIVILEGED = new NamespacePolicy(LevelVersion.PRIVILEGED_LATEST,
            LevelVersion.PRIVILEGED_LATEST, LevelVersion.PRIVILEGED_LATEST);

    /** A policy and what was wrong with the labels it came from (each worded as kube's field error). */
    public record Parsed(NamespacePolicy policy, List<FieldError> errors) {
    }

    /**
     * kube's {@code PolicyToEvaluate}: a label that does not parse falls back to {@code restricted} (enforce)
     * or {@code privileged} (audit, warn) and {@code latest}, and is reported.
     */
    public static Parsed parse(JsonNode labels, NamespacePolicy defaults) {
        List<FieldError> errors = new ArrayList<>();
        LevelVersion enforce = mode(labels, "enforce", defaults.enforce, Level.RESTRICTED, errors);
        LevelVersion audit = mode(labels, "audit", defaults.audit, Level.PRIVILEGED, errors);
        LevelVersion warn = mode(labels, "warn", defaults.warn, Level.PRIVILEGED, errors);
        return new Parsed(new NamespacePolicy(enforce, audit, warn), List.copyOf(errors));
    }

    private static LevelVersion mode(JsonNode labels, String mode, LevelVersion fallback, Level onError,
                                     List<FieldError> errors) {
        LevelVersion lv = fallback;
        JsonNode level = labels == null ? null : labels.get(PREFIX + mode);
        if (level != null && level.isTextual()) {
            Level parsed = Level.parse(level.asText()).orElse(null);
            if (parsed == null) {
                errors.add(FieldError.invalid(path(mode), GoStrings.quote(level.asText()),
                        "must be one of privileged, baseline, restricted"));
            }
            lv = lv.withLevel(parsed == null ? onError : parsed);
        }
        JsonNode version = labels == null ? null : labels.get(PREFIX + mode + "-version");
        if (version != null && version.isTextual()) {
            OptionalInt minor = LevelVersion.parseVersion(version.asText());
            if (minor.isEmpty()) {
                errors.add(FieldError.invalid(path(mode + "-version"), GoStrings.quote(version.asText()),
                        "must be \"latest\" or \"v1.x\""));
            }
            lv = lv.withMinor(minor.orElse(LevelVersion.LATEST));
        }
        return lv;
    }

    private static String path(String label) {
        return "metadata.labels[" + PREFIX + label + "]";
    }

    public boolean fullyPrivileged() {
        return enforce.level() == Level.PRIVILEGED && audit.level() == Level.PRIVILEGED
                && warn.level() == Level.PRIVILEGED;
    }

    /** Same levels, and same versions where the level is not privileged. */
    public boolean equivalent(NamespacePolicy other) {
        return same(enforce, other.enforce) && same(audit, other.audit) && same(warn, other.warn);
    }

    private static boolean same(LevelVersion a, LevelVersion b) {
        return a.level() == b.level() && (a.level() == Level.PRIVILEGED || a.minor() == b.minor());
    }
}
