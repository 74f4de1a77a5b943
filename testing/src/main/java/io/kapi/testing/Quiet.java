package io.kapi.testing;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the server's own logging out of test output: Kapi and Jetty log through java.util.logging,
 * at INFO by default; in a test only their warnings are shown, unless the loggers were configured
 * already or {@code -Dkapi.testing.log=INFO} (any java.util.logging level) asks for more.
 */
final class Quiet {

    /** The configured loggers, held so that java.util.logging does not forget their level. */
    private static final List<Logger> LOGGERS = List.of(Logger.getLogger("io.kapi"), Logger.getLogger("org.eclipse.jetty"));

    private static volatile boolean done;

    private Quiet() {
    }

    static void logs() {
        if (done) {
            return;
        }
        synchronized (Quiet.class) {
            Level level = Level.parse(System.getProperty("kapi.testing.log", "WARNING"));
            for (Logger logger : LOGGERS) {
                if (logger.getLevel() == null) {
                    logger.setLevel(level);
                }
            }
            done = true;
        }
    }
}
