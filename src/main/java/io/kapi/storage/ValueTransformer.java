package io.kapi.storage;

/**
 * What happens to an object's bytes between its encoding and the store, as kube-apiserver's value
 * transformers: encryption at rest, with the storage key as authenticated data where a provider uses it.
 */
public interface ValueTransformer {

    /**
     * Values kept as they are encoded (no encryption configured): kube's {@code NewEncryptCheckTransformer},
     * which refuses to read a value that an encryption provider wrote ({@code k8s:enc:} first).
     */
    ValueTransformer IDENTITY = new ValueTransformer() {
        private static final byte[] ENCRYPTED = "k8s:enc:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

        @Override
        public byte[] toStorage(byte[] plain, String key) {
            return plain;
        }

        @Override
        public byte[] fromStorage(byte[] stored, String key) {
            if (java.util.Arrays.equals(stored, 0, Math.min(stored.length, ENCRYPTED.length), ENCRYPTED, 0,
                    ENCRYPTED.length)) {
                throw new IllegalStateException("identity transformer tried to read encrypted data");
            }
            return stored;
        }
    };

    /** The bytes to store for the encoded object {@code plain} at {@code key}. */
    byte[] toStorage(byte[] plain, String key);

    /**
     * The encoded object stored at {@code key}.
     *
     * @throws RuntimeException when the value cannot be read back (no provider of the resource opens it): the
     *         object's read then fails with kube's internal error naming the key
     */
    byte[] fromStorage(byte[] stored, String key);

    /**
     * Whether the value stored at {@code key} was written by another provider or key than the one that
     * writes now (kube's stale reads): an update then rewrites it even when the object is unchanged, so
     * that rewriting every object moves them all to the current key.
     */
    default boolean stale(byte[] stored, String key) {
        return false;
    }
}
