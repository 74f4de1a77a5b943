package io.kapi.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Why {@link ProgressFence} exists: the installed etcd's own progress notification, asked for right
 * after a watch that starts in the past (an unsynced watcher, as a watch cache resuming is), is
 * answered with the store's current revision before the watcher has sent the history up to it (etcd
 * issue 15220, fixed in 3.4.31 and 3.5.13). Debian 12's etcd is 3.4.23. If this test fails on a newer
 * etcd, the bug is gone there and etcd's own progress request could replace the fence.
 */
final class NativeProgressNotifyTest {

    @RegisterExtension
    static final EtcdCluster ETCD = EtcdCluster.single();

    @Test
    @DisplayName("etcd's own progress notification can vouch for a revision whose events were not sent yet")
    void nativeProgressRunsAhead() throws Exception {
        try (Client client = Client.builder().endpoints(ETCD.endpoints().toArray(String[]::new)).build()) {
            ByteSequence prefix = ByteSequence.from("/native/", UTF_8);
            long first = 0;
            List<CompletableFuture<?>> writes = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                var put = client.getKVClient().put(ByteSequence.from("/native/k" + i, UTF_8), ByteSequence.from("v", UTF_8));
                writes.add(put);
                if (i == 0) {
                    first = put.get().getHeader().getRevision();
                }
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get();
            long last = client.getKVClient().get(prefix).get().getHeader().getRevision();

            LinkedBlockingQueue<WatchResponse> responses = new LinkedBlockingQueue<>();
            try (Watch.Watcher watcher = client.getWatchClient().watch(prefix,
                    WatchOption.builder().withPrefix(prefix).withRevision(first).build(), responses::add)) {
                watcher.requestProgress();
                long eventsBefore = 0;
                boolean aheadOfEvents = false;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (eventsBefore < last - first + 1 && System.nanoTime() < deadline) {
                    WatchResponse r = responses.poll(1, TimeUnit.SECONDS);
                    if (r == null) {
                        continue;
                    }
                    if (r.isProgressNotify()) {
                        aheadOfEvents |= r.getHeader().getRevision() >= last && eventsBefore < last - first + 1;
                        break;
                    }
                    eventsBefore += r.getEvents().size();
                }
                assertTrue(aheadOfEvents, "etcd's progress notification came after the " + eventsBefore
                        + " events it vouches for: this etcd does not have bug 15220");
            }
        }
    }
}
