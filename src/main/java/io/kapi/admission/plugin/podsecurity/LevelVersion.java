package io.kapi.admission.plugin.podsecurity;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A level at a version of the standards, written {@code restricted:latest} or {@code baseline:v1.23}.
 *
 * @param minor the {@code 1.x} minor version, {@link #LATEST} for {@code latest}
 */
public record LevelVersion(Level level, int minor) {

    /** The minor of {@code latest}: newer than every real version. */
    public static final int LATEST = Integer.MAX_VALUE;

    /** The newest version whose checks Kapi knows (kube 1.34's). */
    public static final int NEWEST = 34;

    private static final Pattern VERSION = Pattern.compile("^v1\\.([0-9]|[1-9][0-9]*)$");

    public static final LevelVersion PRIVILEGED_LATEST = new LevelVersion(Level.PRIVILEGED, LATEST);

    /** {@code latest} or {@code v1.x}, as kube's {@code ParseVersion}; empty for anything else. */
    public static OptionalInt parseVersion(String value) {
        if ("latest".equals(value)) {
            return OptionalInt.of(LATEST);
        }
        Matcher m = VERSION.matcher(value);
        if (!m.matches() || m.group(1).length() > 9) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(m.group(1)));
    }

    /** The version the checks are evaluated at: {@code latest} and future versions are the newest known. */
    public int effectiveMinor() {
        return Math.min(minor, NEWEST);
    }

    public String version() {
        return minor == LATEST ? "latest" : "v1." + minor;
    }

    public LevelVersion withLevel(Level l) {
        return new LevelVersion(l, minor);
    }

    public LevelVersion withMinor(int m) {
        return new LevelVersion(level, m);
    }

    @Override
    public String toString() {
        return level + ":" + version();
    }
}
