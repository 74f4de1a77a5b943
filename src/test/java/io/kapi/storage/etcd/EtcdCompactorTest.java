package io.kapi.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.GetOption;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** kube-apiserver's compaction protocol on a real etcd, with two servers taking part. */
final class EtcdCompactorTest {

    @RegisterExtension
    static final EtcdCluster ETCD = EtcdCluster.single();

    @Test
    @DisplayName("two servers compact once per round between them, to the revision sampled a round earlier")
    void onceBetweenServers() throws Exception {
        try (Client client = Client.builder().endpoints(ETCD.endpoints().toArray(String[]::new)).build()) {
            EtcdCalls calls = new EtcdCalls(Duration.ofSeconds(10));
            AtomicLong byFirst = new AtomicLong();
            AtomicLong bySecond = new AtomicLong();
            EtcdCompactor first = new EtcdCompactor(client.getKVClient(), calls, Duration.ZERO, byFirst::set);
            EtcdCompactor second = new EtcdCompactor(client.getKVClient(), calls, Duration.ZERO, bySecond::set);
            ByteSequence key = ByteSequence.from("/registry/k", UTF_8);
            long early = client.getKVClient().put(key, ByteSequence.from("1", UTF_8)).get().getHeader().getRevision();

            first.step(); // first round: samples, compacts nothing
            second.step(); // lost the CAS: takes over the clock
            assertEquals(0, byFirst.get() + bySecond.get());
            long sampled = client.getKVClient().get(key).get().getHeader().getRevision();
            client.getKVClient().put(key, ByteSequence.from("2", UTF_8)).get();

            first.step(); // wins: compacts to its sample of the first round
            second.step(); // loses again: nothing
            assertTrue(byFirst.get() >= early && byFirst.get() <= sampled, "compacted to " + byFirst.get());
            assertEquals(0, bySecond.get(), "only one server compacted this round");
            assertEquals(byFirst.get(), second.knownCompacted(), "the loser read the compacted revision");
            long compacted = byFirst.get();
            var error = assertThrows(ExecutionException.class, () -> client.getKVClient()
                    .get(key, GetOption.builder().withRevision(compacted - 1).build()).get());
            assertTrue(error.getCause().getMessage().contains("compacted"), error.getCause().getMessage());
            first.close();
            second.close();
        }
    }
}
