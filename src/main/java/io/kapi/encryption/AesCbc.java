package io.kapi.encryption;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * kube's {@code aescbc}: a random 16-byte IV, then AES-CBC of the value with PKCS#7 padding. No
 * authentication: kube's documentation advises against it, it stays for existing clusters.
 */
record AesCbc(SecretKeySpec key) implements Cipher {

    private static final int BLOCK = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    AesCbc(byte[] key) {
        this(new SecretKeySpec(key, "AES"));
    }

    @Override
    public byte[] seal(byte[] plain, byte[] aad) {
        byte[] iv = new byte[BLOCK];
        RANDOM.nextBytes(iv);
        try {
            javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/CBC/PKCS5Padding");
            c.init(javax.crypto.Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv));
            byte[] out = Arrays.copyOf(iv, BLOCK + c.getOutputSize(plain.length));
            c.doFinal(plain, 0, plain.length, out, BLOCK);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public byte[] open(byte[] data, byte[] aad) {
        if (data.length < BLOCK) {
            throw new IllegalStateException("the stored data was shorter than the required size");
        }
        if ((data.length - BLOCK) % BLOCK != 0) {
            throw new IllegalStateException("the stored data is not a multiple of the block size");
        }
        if (data.length == BLOCK) {
            throw new IllegalStateException("invalid PKCS7 data (empty or not padded)");
        }
        try {
            javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/CBC/PKCS5Padding");
            c.init(javax.crypto.Cipher.DECRYPT_MODE, key, new IvParameterSpec(data, 0, BLOCK));
            return c.doFinal(data, BLOCK, data.length - BLOCK);
        } catch (javax.crypto.BadPaddingException e) {
            throw new IllegalStateException("invalid padding on input");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }
}
