package io.kapi.assembly;

import io.kapi.apis.bootstrap.BootstrapHooks;
import io.kapi.machinery.schema.Schemas;
import io.kapi.server.KapiServer;
import java.lang.System.Logger.Level;

/**
 * The per-JVM work of a start that depends on nothing a command line says, begun on a thread of its
 * own before the command line is even parsed: the built-in schemas (a large JSON document), the
 * bootstrap RBAC and flow-control data files (in the JSON the build wrote), Jetty's MIME types. Each
 * is loaded once per JVM and kept, so the start's own calls find it loaded, or wait for the load under way, instead of
 * doing it on the main thread after the flags, the data directory and the certificates. In the order
 * the start needs them.
 */
public final class StartUpPreload {

    private StartUpPreload() {
    }

    /** Begins the loads; a load that fails is left to the start's own call, which reports it. */
    public static void begin() {
        Thread.ofPlatform().name("kapi-preload").daemon().start(() -> {
            try {
                Schemas.builtin();
                BootstrapHooks.preloadData();
                KapiServer.preload();
            } catch (RuntimeException | LinkageError e) {
                // the logger only now: the first System.getLogger of a JVM looks for logging back ends in
                // every jar of the class path (~0.1 s), which would delay the thread's start
                System.getLogger(StartUpPreload.class.getName())
                        .log(Level.DEBUG, "start-up preload stopped; the start loads what is left itself", e);
            }
        });
    }
}
