package io.kapi.encryption;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * kube's AES-GCM transformer ({@code aesgcm}, and KMS v2's data keys): a random 12-byte nonce, then the
 * ciphertext with its 16-byte tag; the storage key is the authenticated data, so a value copied to
 * another key does not open. {@code info} bytes (KMS v2's extended nonce) come first when present.
 */
record AesGcm(SecretKeySpec key, byte[] info) implements Cipher {

    static final int NONCE = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    AesGcm(byte[] key) {
        this(new SecretKeySpec(key, "AES"), new byte[0]);
    }

    @Override
    public byte[] seal(byte[] plain, byte[] aad) {
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        try {
            javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
            c.init(javax.crypto.Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(aad);
            int head = info.length + NONCE;
            byte[] out = new byte[head + c.getOutputSize(plain.length)];
            System.arraycopy(info, 0, out, 0, info.length);
            System.arraycopy(nonce, 0, out, info.length, NONCE);
            c.doFinal(plain, 0, plain.length, out, head);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public byte[] open(byte[] data, byte[] aad) {
        int head = info.length + NONCE;
        if (data.length < head) {
            throw new IllegalStateException("the stored data was shorter than the required size");
        }
        try {
            javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
            c.init(javax.crypto.Cipher.DECRYPT_MODE, key,
                    new GCMParameterSpec(TAG_BITS, Arrays.copyOfRange(data, info.length, head)));
            c.updateAAD(aad);
            return c.doFinal(data, head, data.length - head);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cipher: message authentication failed");
        }
    }
}
