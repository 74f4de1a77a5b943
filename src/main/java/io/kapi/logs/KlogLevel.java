package io.kapi.logs;

import java.util.logging.Level;

/**
 * klog's verbosity levels on java.util.logging's scale. Kapi logs through {@code System.Logger}, whose
 * levels land on JUL's: INFO and up are {@code v=0}, DEBUG (FINE) is {@code v=2}, TRACE (FINER) is
 * {@code v=4}. {@link #V3}, between them, is kube's request-line level ({@code -v=3}).
 */
public final class KlogLevel extends Level {

    /** kube-apiserver's httplog level: one line per request at {@code -v=3}. */
    public static final Level V3 = new KlogLevel("V3", 450);

    private KlogLevel(String name, int value) {
        super(name, value, null);
    }

    /** The klog verbosity of a record at {@code level}: what {@code -v} must be for it to show. */
    public static int verbosity(Level level) {
        int value = level.intValue();
        if (value >= Level.INFO.intValue()) {
            return 0;
        }
        if (value >= Level.CONFIG.intValue()) {
            return 1;
        }
        if (value >= Level.FINE.intValue()) {
            return 2;
        }
        if (value >= V3.intValue()) {
            return 3;
        }
        return value >= Level.FINER.intValue() ? 4 : 5;
    }

    /** The lowest JUL level shown at verbosity {@code v}. */
    static Level threshold(int v) {
        return switch (v) {
            case 0 -> Level.INFO;
            case 1 -> Level.CONFIG;
            case 2 -> Level.FINE;
            case 3 -> V3;
            default -> Level.ALL;
        };
    }
}
