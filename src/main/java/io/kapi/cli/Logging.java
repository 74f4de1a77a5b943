package io.kapi.cli;

import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Sets up logging for the server process: one line per record on stderr, klog-like. {@code -v}
 * works as kube-apiserver's: 0–1 info, 2–3 adds Kapi's debug messages, 4 and up adds trace, and 6
 * and up also Jetty's own debug output.
 */
final class Logging {

    private Logging() {
    }

    static void configure(int verbosity) {
        System.setProperty("java.util.logging.SimpleFormatter.format",
                "%1$tm%1$td %1$tH:%1$tM:%1$tS.%1$tL %4$.1s %3$s] %5$s%6$s%n");
        LogManager.getLogManager().reset();
        ConsoleHandler console = new ConsoleHandler();
        console.setFormatter(new SimpleFormatter());
        console.setLevel(Level.ALL);
        Logger root = Logger.getLogger("");
        root.addHandler(console);
        root.setLevel(Level.INFO);
        Logger.getLogger("io.kapi").setLevel(verbosity >= 4 ? Level.FINEST : verbosity >= 2 ? Level.FINE : Level.INFO);
        Logger.getLogger("org.eclipse.jetty").setLevel(verbosity >= 6 ? Level.FINE : Level.WARNING);
    }
}
