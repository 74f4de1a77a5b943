package io.kapi.cli;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT as kube-apiserver handles them: the first starts a graceful shutdown and the
 * process exits 0 once it is done (the JVM's own handler would exit 143 or 130); a second one exits
 * at once with 1. Storage is safe either way: an acknowledged write is already durable.
 */
final class Signals {

    private static final System.Logger LOG = System.getLogger(Signals.class.getName());

    private Signals() {
    }

    /** Runs {@code shutdown} on its own thread at the first SIGTERM or SIGINT. */
    static void onTermination(Runnable shutdown) {
        AtomicBoolean received = new AtomicBoolean();
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    if (received.compareAndSet(false, true)) {
                        LOG.log(Level.INFO, "Received SIG{0}; shutting down gracefully", name);
                        Thread.ofPlatform().name("kapi-shutdown").start(shutdown);
                    } else {
                        LOG.log(Level.WARNING, "Received a second signal (SIG{0}); exiting at once", name);
                        Runtime.getRuntime().halt(1);
                    }
                });
            } catch (IllegalArgumentException e) {
                // the signal cannot be handled here (the JVM was started with -Xrs): keep the default
                LOG.log(Level.DEBUG, "cannot handle SIG{0}: {1}", name, e.getMessage());
            }
        }
    }
}
