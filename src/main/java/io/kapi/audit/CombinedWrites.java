package io.kapi.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The log backend's writes, combined: a request's lines join the batch being gathered, and one writer at a
 * time writes a whole batch with one call while the next gathers. Every caller returns only once its own
 * lines are written (blocking mode's promise), or with the error that write met. Requests that were each
 * making a write under a lock (8 clients: 8 system calls and a contended monitor per stage) now share one.
 */
final class CombinedWrites {

    /** Where a batch goes. */
    @FunctionalInterface
    interface Sink {
        void write(byte[] data) throws IOException;
    }

    /** Lines gathered for one write, and what it did. */
    private static final class Batch {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean done;
        IOException error;
    }

    private final Sink sink;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition written = lock.newCondition();
    private Batch gathering = new Batch();
    private boolean writing;

    CombinedWrites(Sink sink) {
        this.sink = sink;
    }

    /** What closes the sink. */
    @FunctionalInterface
    interface Closer {
        void close() throws IOException;
    }

    /**
     * Writes what is gathered, then runs {@code close} once no batch is being written: a write that comes
     * later meets what it closed.
     */
    void closeWith(Closer close) throws IOException {
        lock.lock();
        try {
            while (writing) {
                written.awaitUninterruptibly();
            }
            Batch last = gathering;
            gathering = new Batch();
            if (last.bytes.size() > 0) {
                try {
                    sink.write(last.bytes.toByteArray());
                } catch (IOException e) {
                    last.error = e;
                }
            }
            last.done = true;
            written.signalAll();
            close.close();
        } finally {
            lock.unlock();
        }
    }

    /** Writes {@code data} with whatever else is waiting; returns once it is written. */
    void write(byte[] data) throws IOException {
        lock.lock();
        try {
            Batch mine = gathering;
            mine.bytes.write(data);
            while (!mine.done) {
                if (writing) {
                    written.awaitUninterruptibly();
                    continue;
                }
                Batch batch = gathering;
                gathering = new Batch();
                writing = true;
                lock.unlock();
                IOException error = null;
                try {
                    sink.write(batch.bytes.toByteArray());
                } catch (IOException e) {
                    error = e;
                } finally {
                    lock.lock();
                    batch.error = error;
                    batch.done = true;
                    writing = false;
                    written.signalAll();
                }
            }
            if (mine.error != null) {
                throw mine.error;
            }
        } finally {
            lock.unlock();
        }
    }
}
