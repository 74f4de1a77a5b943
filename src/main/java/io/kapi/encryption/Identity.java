package io.kapi.encryption;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** kube's {@code identity} provider: values as they are; an encrypted value ({@code k8s:enc:...}) is refused. */
enum Identity implements Cipher {
    INSTANCE;

    private static final byte[] ENCRYPTED = "k8s:enc:".getBytes(StandardCharsets.US_ASCII);

    static boolean encrypted(byte[] value) {
        return value.length >= ENCRYPTED.length && Arrays.equals(value, 0, ENCRYPTED.length, ENCRYPTED, 0, ENCRYPTED.length);
    }

    @Override
    public byte[] seal(byte[] plain, byte[] aad) {
        return plain;
    }

    @Override
    public byte[] open(byte[] data, byte[] aad) {
        if (encrypted(data)) {
            throw new IllegalStateException("identity transformer tried to read encrypted data");
        }
        return data;
    }
}
