package io.kapi.admission.plugin.podsecurity;

import java.util.Optional;

/** The Pod Security Standards' levels, least strict first, as their label values name them. */
public enum Level {
    PRIVILEGED("privileged"), BASELINE("baseline"), RESTRICTED("restricted");

    private final String label;

    Level(String label) {
        this.label = label;
    }

    /** The value of a {@code pod-security.kubernetes.io/<mode>} label. */
    public String label() {
        return label;
    }

    /** The level a label value names, or empty for anything else. */
    public static Optional<Level> parse(String value) {
        for (Level l : values()) {
            if (l.label.equals(value)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return label;
    }
}
