package io.kapi.informers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Shared informers over the watch cache, and a queue-driven controller on them. */
class InformerTest {

    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static ApiHarness api;
    private static SharedInformers informers;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
        informers = new SharedInformers(api.assembly().registry()::store);
        informers.start();
    }

    @AfterAll
    static void stop() throws Exception {
        informers.close();
        api.close();
    }

    private static void create(String name) {
        assertEquals(201, api.post(CMS, "{\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"a\":\"1\"}}").code());
    }

    @Test
    @DisplayName("one informer per resource, shared: handlers see adds, updates and deletes in order")
    void handlersSeeChanges() throws InterruptedException {
        Informer informer = informers.informer(CONFIGMAPS);
        assertTrue(informer == informers.informer(CONFIGMAPS), "shared");
        assertTrue(informer.awaitSynced(Duration.ofSeconds(10)));
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        informer.addHandler(new EventHandler() {
            @Override
            public void onAdd(ObjectNode o) {
                seen.add("add " + ObjectMeta.of(o).name());
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                seen.add("update " + ObjectMeta.of(after).name() + " " + after.path("data").path("a").asText());
            }

            @Override
            public void onDelete(ObjectNode o) {
                seen.add("delete " + ObjectMeta.of(o).name());
            }
        });
        create("inf1");
        assertEquals(200, api.patch(CMS + "/inf1", "application/merge-patch+json", "{\"data\":{\"a\":\"2\"}}").code());
        assertEquals(200, api.delete(CMS + "/inf1").code());
        List<String> expected = List.of("add inf1", "update inf1 2", "delete inf1");
        for (String e : expected) {
            String got;
            do {
                got = seen.poll(10, TimeUnit.SECONDS);
            } while (got != null && !got.endsWith("inf1") && !got.contains("inf1 "));
            assertEquals(e, got);
        }
        assertTrue(informer.get("default", "inf1").isEmpty());
    }

    @Test
    @DisplayName("a handler added late is first told of every object held")
    void lateHandlerReplays() throws InterruptedException {
        create("late1");
        Informer informer = informers.informer(CONFIGMAPS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (informer.get("default", "late1").isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        AtomicInteger added = new AtomicInteger();
        informer.addHandler(EventHandler.onAnyChange(o -> {
            if (ObjectMeta.of(o).name().equals("late1")) {
                added.incrementAndGet();
            }
        }));
        assertEquals(1, added.get());
    }

    @Test
    @DisplayName("a queue controller reconciles each changed key, retrying failures with back-off")
    void queueController() throws InterruptedException {
        BlockingQueue<String> reconciled = new LinkedBlockingQueue<>();
        AtomicInteger failures = new AtomicInteger();
        QueueController controller = new QueueController("test", 2, key -> {
            if (key.equals("default/flaky") && failures.getAndIncrement() < 2) {
                throw new IllegalStateException("not yet");
            }
            reconciled.add(key);
        });
        informers.informer(CONFIGMAPS).addHandler(controller.enqueueing());
        controller.start();
        try {
            create("flaky");
            String key;
            do {
                key = reconciled.poll(10, TimeUnit.SECONDS);
            } while (key != null && !key.equals("default/flaky"));
            assertEquals("default/flaky", key);
            assertEquals(3, failures.get());
        } finally {
            controller.close();
        }
    }
}
