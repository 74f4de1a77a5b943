package io.kapi.cli;

import java.util.List;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Sets up logging for the server process: one line per record on stderr, klog-like. {@code -v}
 * works as kube-apiserver's: 0–1 info, 2–3 adds Kapi's debug messages, 4 and up adds trace, and 6
 * and up also Jetty's own debug output (Jetty logs through SLF4J into java.util.logging).
 */
final class Logging {

    /** Held so the configured levels are not lost: java.util.logging keeps loggers weakly. */
    private static volatile List<Logger> configured = List.of();

    private Logging() {
    }

    /** Must run before anything logs: keeps logging alive while shutdown hooks run. */
    static void installManager() {
        if (System.getProperty("java.util.logging.manager") == null) {
            System.setProperty("java.util.logging.manager", ShutdownSafeLogManager.class.getName());
        }
    }

    static void configure(int verbosity) {
        System.setProperty("java.util.logging.SimpleFormatter.format",
                "%1$tm%1$td %1$tH:%1$tM:%1$tS.%1$tL %4$.1s %3$s] %5$s%6$s%n");
        if (LogManager.getLogManager() instanceof ShutdownSafeLogManager manager) {
            manager.resetNow();
        } else {
            LogManager.getLogManager().reset();
        }
        ConsoleHandler console = new ConsoleHandler();
        console.setFormatter(new SimpleFormatter());
        console.setLevel(Level.ALL);
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) { // also forces the lazy default set-up first
            root.removeHandler(handler);
        }
        root.addHandler(console);
        root.setLevel(Level.INFO);
        Logger kapi = Logger.getLogger("io.kapi");
        kapi.setLevel(verbosity >= 4 ? Level.FINEST : verbosity >= 2 ? Level.FINE : Level.INFO);
        Logger jetty = Logger.getLogger("org.eclipse.jetty");
        jetty.setLevel(verbosity >= 6 ? Level.FINE : Level.WARNING);
        configured = List.of(root, kapi, jetty);
    }

    /**
     * The JDK's LogManager closes every handler when the JVM begins to shut down, so the server's
     * shutdown messages would be lost; this one resets only when asked to by {@link Logging}.
     */
    public static final class ShutdownSafeLogManager extends LogManager {

        @Override
        public void reset() {
            // ignored: called by the JDK's shutdown hook; see resetNow()
        }

        void resetNow() {
            super.reset();
        }
    }
}
