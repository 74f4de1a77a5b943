package io.kapi.cli;

import io.kapi.logs.LogFormat;
import io.kapi.logs.VModule;
import io.kapi.logs.Verbosity;
import java.time.Duration;
import java.util.List;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * Sets up logging for the server process: one line per record on stderr, in klog's text or kube's
 * JSON ({@code --logging-format}). {@code -v} works as kube-apiserver's: 0–1 info, 2 adds Kapi's debug
 * messages, 3 the request lines, 4 and up trace, and 6 and up also Jetty's own debug output (Jetty
 * logs through SLF4J into java.util.logging); {@code --vmodule} sets it per class ({@link Verbosity}).
 * Each line is flushed as it is written, as klog writes to stderr; {@code --log-flush-frequency} is
 * klog's flush daemon, which flushes whatever else is pending.
 */
final class Logging {

    /** Held so the root logger's handler is not lost: java.util.logging keeps loggers weakly. */
    private static volatile Logger root;
    private static volatile Thread flusher;

    private Logging() {
    }

    /** Must run before anything logs: keeps logging alive while shutdown hooks run. */
    static void installManager() {
        if (System.getProperty("java.util.logging.manager") == null) {
            System.setProperty("java.util.logging.manager", ShutdownSafeLogManager.class.getName());
        }
    }

    static void configure(int verbosity, LogFormat format, List<VModule> vmodule, Duration flushFrequency) {
        if (LogManager.getLogManager() instanceof ShutdownSafeLogManager manager) {
            manager.resetNow();
        } else {
            LogManager.getLogManager().reset();
        }
        ConsoleHandler console = new ConsoleHandler();
        console.setFormatter(format.formatter());
        console.setFilter(Verbosity.filter());
        console.setLevel(Level.ALL);
        Logger r = Logger.getLogger("");
        for (Handler handler : r.getHandlers()) { // also forces the lazy default set-up first
            r.removeHandler(handler);
        }
        r.addHandler(console);
        r.setLevel(Level.INFO);
        root = r;
        Verbosity.configure(verbosity, vmodule);
        startFlusher(console, flushFrequency);
    }

    private static synchronized void startFlusher(Handler handler, Duration every) {
        if (flusher != null) {
            flusher.interrupt();
        }
        flusher = Thread.ofPlatform().daemon().name("kapi-log-flush").start(() -> {
            try {
                while (true) {
                    Thread.sleep(every);
                    handler.flush();
                }
            } catch (InterruptedException e) {
                // replaced by a new configuration
            }
        });
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
