package io.kapi.registry;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.StatusReason;
import io.kapi.storage.StorageException;
import java.util.List;

/**
 * Translates storage failures into API errors: the one place, as kube-apiserver's {@code storeerr} and
 * the cacher's errors. The storage layer (stores and watch caches) knows nothing of HTTP or Status.
 */
public final class StorageErrors {

    /** kube-apiserver's {@code resourceVersionTooHighRetrySeconds}. */
    private static final int RETRY_SECONDS = 1;

    private StorageErrors() {
    }

    /** The error of a read or write of object {@code name}. */
    static ApiException interpret(StorageException e, GroupVersionResource gvr, String name) {
        return switch (e) {
            case StorageException.KeyExists ignored -> ApiException.alreadyExists(gvr, name);
            case StorageException.KeyNotFound ignored -> ApiException.notFound(gvr, name);
            case StorageException.Conflict ignored -> ApiException.staleUpdate(gvr, name);
            case StorageException.Compacted c -> ApiException.gone(
                    "The resourceVersion for the provided list is too old.");
            case StorageException.ResourceVersionTooLarge t -> tooLarge(t);
            case StorageException.Unavailable u -> ApiException.serviceUnavailable(
                    "storage is unavailable: " + u.getMessage());
            default -> ApiException.internal(e.getMessage());
        };
    }

    /**
     * The ERROR a watch ends with: 410 {@code too old resource version: R (oldest)} when it asked for
     * history the cache no longer has, 504 when it asked for a revision not reached in time.
     */
    public static ApiException forWatch(StorageException e) {
        return switch (e) {
            case StorageException.Compacted c -> ApiException.gone(
                    "too old resource version: %d (%d)".formatted(c.requested(), c.compactedRevision()));
            case StorageException.ResourceVersionTooLarge t -> tooLarge(t);
            default -> interpret(e, new GroupVersionResource("", "", ""), "");
        };
    }

    /** 504 Timeout {@code Too large resource version: R, current: C} with cause ResourceVersionTooLarge. */
    static ApiException tooLarge(StorageException.ResourceVersionTooLarge t) {
        return new ApiException(StatusReason.TIMEOUT, 504,
                "Timeout: Too large resource version: %d, current: %d".formatted(t.requested(), t.current()),
                new ApiException.Details(null, null, null,
                        List.of(new StatusCause("ResourceVersionTooLarge", "Too large resource version", null)),
                        RETRY_SECONDS));
    }
}
