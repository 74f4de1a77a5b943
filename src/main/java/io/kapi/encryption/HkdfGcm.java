package io.kapi.encryption;

import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

/**
 * KMS v2's data encryption with a seed (kube's {@code HKDF_SHA256_XNONCE_AES_GCM_SEED}): every write draws
 * 32 random bytes of "info", derives a one-use AES-256 key as HKDF-SHA256-Expand(seed, info), and stores
 * info, then the AES-GCM nonce and ciphertext (the storage key authenticated). One seed serves any number
 * of writes, so it is generated once per key ID, not per write.
 */
record HkdfGcm(byte[] seed) implements Cipher {

    static final int SEED = 32;
    private static final int INFO = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    static HkdfGcm generate() {
        byte[] seed = new byte[SEED];
        RANDOM.nextBytes(seed);
        return new HkdfGcm(seed);
    }

    @Override
    public byte[] seal(byte[] plain, byte[] aad) {
        byte[] info = new byte[INFO];
        RANDOM.nextBytes(info);
        return new AesGcm(new javax.crypto.spec.SecretKeySpec(derive(info), "AES"), info).seal(plain, aad);
    }

    @Override
    public byte[] open(byte[] data, byte[] aad) {
        if (data.length < INFO) {
            throw new IllegalStateException("the stored data was shorter than the required size");
        }
        byte[] info = Arrays.copyOf(data, INFO);
        return new AesGcm(new javax.crypto.spec.SecretKeySpec(derive(info), "AES"), info).open(data, aad);
    }

    private byte[] derive(byte[] info) {
        HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
        hkdf.init(HKDFParameters.skipExtractParameters(seed, info));
        byte[] key = new byte[32];
        hkdf.generateBytes(key, 0, key.length);
        return key;
    }
}
