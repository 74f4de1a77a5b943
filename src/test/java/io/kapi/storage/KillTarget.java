package io.kapi.storage;

import io.kapi.storage.backends.Storages;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child process of {@link EmbeddedDurabilityTest}: creates keys from many threads into the embedded
 * store in {@code args[0]} until killed, printing {@code key revision} for each acknowledged create.
 */
public final class KillTarget {

    private KillTarget() {
    }

    public static void main(String[] args) {
        Storage storage = Storages.embedded(Path.of(args[0]));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.println("ready " + storage.currentRevision());
        out.flush();
        for (int t = 0; t < 8; t++) {
            int thread = t;
            Thread.ofPlatform().start(() -> {
                for (int i = 0; ; i++) {
                    String key = "/kill/t" + thread + "/" + i;
                    long revision = storage.create(key, ("value " + i).getBytes(StandardCharsets.UTF_8)).modRevision();
                    synchronized (out) {
                        out.println(key + " " + revision);
                        out.flush();
                    }
                }
            });
        }
    }
}
