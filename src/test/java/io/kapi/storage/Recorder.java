package io.kapi.storage;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** A watch listener that records events for a test to await. */
final class Recorder implements Consumer<WatchEvent> {
    private final LinkedBlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();

    @Override
    public void accept(WatchEvent event) {
        events.add(event);
    }

    WatchEvent next() {
        try {
            WatchEvent event = events.poll(10, TimeUnit.SECONDS);
            assertNotNull(event, "no watch event within 10 s");
            return event;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    List<WatchEvent> next(int count) {
        List<WatchEvent> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(next());
        }
        return list;
    }

    /** Events arriving within {@code millis}; used to show that nothing more comes. */
    List<WatchEvent> drain(long millis) throws InterruptedException {
        Thread.sleep(millis);
        List<WatchEvent> list = new ArrayList<>();
        events.drainTo(list);
        return list;
    }
}
