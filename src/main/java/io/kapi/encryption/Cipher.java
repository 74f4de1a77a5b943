package io.kapi.encryption;

/**
 * One key of one provider: what comes after its prefix ({@code k8s:enc:aescbc:v1:key1:}) in a stored
 * value. {@code aad} is the storage key, authenticated where kube's provider authenticates it.
 */
interface Cipher {

    byte[] seal(byte[] plain, byte[] aad);

    /**
     * @throws IllegalStateException in kube's words when the value does not open with this key (wrong
     *         key, tampered, truncated)
     */
    byte[] open(byte[] data, byte[] aad);

    /** Whether a value this cipher opens should be rewritten by the next update (KMS v2: an older key ID). */
    default boolean stale(byte[] data) {
        return false;
    }
}
