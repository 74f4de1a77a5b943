package io.kapi.storage.cache;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.StatusReason;
import java.util.List;

/** The API errors the cache answers with, worded as kube-apiserver's watch cache words them. */
public final class CacheErrors {

    /** kube-apiserver's {@code resourceVersionTooHighRetrySeconds}. */
    private static final int RETRY_SECONDS = 1;

    private CacheErrors() {
    }

    /** 410 Expired for a watch from before the kept history. */
    public static ApiException tooOld(long requested, long oldest) {
        return ApiException.gone("too old resource version: %d (%d)".formatted(requested, oldest));
    }

    /** 504 Timeout for a read of a revision the server did not reach in time. */
    public static ApiException tooLarge(long requested, long current) {
        return new ApiException(StatusReason.TIMEOUT, 504,
                "Timeout: Too large resource version: %d, current: %d".formatted(requested, current),
                new ApiException.Details(null, null, null,
                        List.of(new StatusCause("ResourceVersionTooLarge", "Too large resource version", null)),
                        RETRY_SECONDS));
    }
}
