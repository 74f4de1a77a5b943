package io.kapi.storage.etcd;

import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.Status;
import io.kapi.storage.StorageException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Keeps jetcd's futures behind the Storage SPI: waits for one etcd call with a deadline and turns
 * its failure into a {@link StorageException}, in one place. The gRPC channel also carries the
 * deadline ({@link EtcdClients}), so a call that times out here is cancelled there too: a write
 * refused for want of quorum does not linger and happen later.
 */
final class EtcdCalls {

    private static final String COMPACTED = "required revision has been compacted";
    private static final String FUTURE = "required revision is a future revision";
    private static final String TOO_LARGE = "request is too large";

    private final Duration timeout;

    EtcdCalls(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * The result of {@code call}.
     *
     * @throws StorageException.Unavailable when etcd cannot be reached or answers too late
     * @throws StorageException.TooLarge when etcd refuses the request's size
     * @throws StorageException.Compacted when a read at a compacted revision was asked for (with the
     *         requested revision {@code revision} and compacted revision unknown, 0)
     * @throws IllegalArgumentException when a future revision was asked for
     */
    <T> T await(CompletableFuture<T> call, String key, long revision) {
        try {
            return call.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new StorageException.Unavailable("interrupted while waiting for etcd", e);
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new StorageException.Unavailable("etcd did not answer within " + timeout.toSeconds() + " s", e);
        } catch (ExecutionException | CompletionException | CancellationException e) {
            throw translate(e.getCause() == null ? e : e.getCause(), key, revision);
        }
    }

    /**
     * Whether a failed write may be tried again at once: the connection broke (a member stopped, a
     * leader changed), as opposed to etcd or the deadline giving up, where trying again would only
     * wait as long once more.
     */
    static boolean retryable(StorageException.Unavailable e) {
        String m = String.valueOf(e.getMessage());
        return !m.contains("timed out") && !m.contains("did not answer") && !m.contains("storage closed")
                && !m.contains("interrupted") && !m.contains("TLS");
    }

    /** The storage error for a failed etcd call. */
    static RuntimeException translate(Throwable failure, String key, long revision) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String code = code(cause);
        String message = describe(cause, code);
        if (message.contains(COMPACTED)) {
            return new StorageException.Compacted(revision, 0);
        }
        if (message.contains(FUTURE)) {
            return new IllegalArgumentException("revision " + revision + " is in the future");
        }
        if (message.contains(TOO_LARGE)) {
            return new StorageException.TooLarge(key);
        }
        return new StorageException.Unavailable(message, cause);
    }

    /** The gRPC status code's name (jetcd's EtcdException keeps it as its error code). */
    private static String code(Throwable cause) {
        if (cause instanceof EtcdException etcd) {
            return etcd.getErrorCode().name();
        }
        return Status.fromThrowable(cause).getCode().name();
    }

    /** etcd's own wording where there is one ({@code etcdserver: request timed out}), else the code. */
    private static String describe(Throwable cause, String code) {
        if (code.equals("DEADLINE_EXCEEDED")) {
            return "etcd request timed out (context deadline exceeded)";
        }
        String message = cause instanceof EtcdException ? cause.getMessage() : Status.fromThrowable(cause).getDescription();
        if (message == null || message.isEmpty()) {
            message = cause.getMessage();
        }
        return message == null || message.isEmpty() ? "etcd call failed: " + code : message;
    }
}
