package io.kapi.registry;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.StatusReason;
import java.util.Optional;

/**
 * A stored value that cannot be read, kube's {@code corruptObjectError}: either no transformer opens it (an
 * encryption key gone, a provider failing) or what it opens to does not decode. Carried as the cause of the
 * {@link ApiException} a read answers, so that a LIST can word all it met as kube does
 * ({@link ListReadErrors}).
 *
 * @param key the storage key
 * @param untransformable whether the transformer failed (else the decoding)
 * @param revision the value's revision where kube names it (0 for a value that was not transformed)
 * @param cause the transformer's or decoder's own words
 */
record CorruptValue(String key, boolean untransformable, long revision, String cause) {

    /** kube's {@code storage.NewCorruptObjError(key, corruptObjectError)} as text. */
    String storageError() {
        return "StorageError: corrupt object, Code: 7, Key: " + key + ", ResourceVersion: 0, AdditionalErrorMsg: "
                + (untransformable ? "data from the storage is not transformable" : "object not decodable")
                + " revision=" + revision + ": " + cause;
    }

    /**
     * What a read of this one value answers. With kube's {@code AllowUnsafeMalformedObjectDeletion} gate its
     * store names the key (a corrupt-object StorageError, which the delete option acts on); without it a value
     * no transformer opens is an internal error in the transformer's words, and one that does not decode is
     * the decoder's error as it is.
     */
    ApiException readError(boolean unsafeDeletionGate) {
        if (unsafeDeletionGate) {
            return internal(storageError());
        }
        return untransformable ? internal(cause) : withCause(new ApiException(StatusReason.UNKNOWN, 500, cause,
                ApiException.Details.NONE));
    }

    /** What a LIST that meets this value first answers without the gate: its store stops there. */
    ApiException listError() {
        return untransformable ? internal("unable to transform key \"" + key + "\": " + cause) : readError(false);
    }

    private ApiException internal(String detail) {
        return withCause(ApiException.internal(detail));
    }

    private ApiException withCause(ApiException e) {
        return new ApiException(e.reason(), e.code(), e.getMessage(), e.details(), new Carrier(this));
    }

    /** The corrupt value an error of {@link #readError} or {@link #listError} is about. */
    static Optional<CorruptValue> of(Throwable error) {
        return error != null && error.getCause() instanceof Carrier c ? Optional.of(c.value) : Optional.empty();
    }

    /** Holds the value as an exception's cause; no stack. */
    private static final class Carrier extends RuntimeException {
        private final transient CorruptValue value;

        Carrier(CorruptValue value) {
            super(value.storageError(), null, false, false);
            this.value = value;
        }
    }

    /** Causes as kube's aggregated StoreReadError lists them. */
    StatusCause statusCause() {
        return new StatusCause("UnexpectedServerResponse", storageError(), key);
    }
}
