package io.kapi.encryption;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.crypto.engines.XSalsa20Engine;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;

/**
 * kube's {@code secretbox}: NaCl's secretbox (XSalsa20 and Poly1305) with a random 24-byte nonce; the
 * value is the nonce, the 16-byte tag, then the ciphertext. The first 32 bytes of the key stream are the
 * one-time Poly1305 key, the rest encrypts.
 */
record Secretbox(byte[] key) implements Cipher {

    private static final int NONCE = 24;
    private static final int TAG = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    public byte[] seal(byte[] plain, byte[] aad) {
        byte[] out = new byte[NONCE + TAG + plain.length];
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        System.arraycopy(nonce, 0, out, 0, NONCE);
        XSalsa20Engine stream = stream(nonce);
        byte[] polyKey = polyKey(stream);
        stream.processBytes(plain, 0, plain.length, out, NONCE + TAG);
        System.arraycopy(tag(polyKey, out, NONCE + TAG, plain.length), 0, out, NONCE, TAG);
        return out;
    }

    @Override
    public byte[] open(byte[] data, byte[] aad) {
        if (data.length < NONCE + TAG) {
            throw new IllegalStateException("the stored data was shorter than the required size");
        }
        XSalsa20Engine stream = stream(Arrays.copyOf(data, NONCE));
        byte[] polyKey = polyKey(stream);
        int length = data.length - NONCE - TAG;
        if (!MessageDigest.isEqual(tag(polyKey, data, NONCE + TAG, length), Arrays.copyOfRange(data, NONCE, NONCE + TAG))) {
            // kube's words for a secretbox that does not open
            throw new IllegalStateException("output array was not large enough for encryption");
        }
        byte[] plain = new byte[length];
        stream.processBytes(data, NONCE + TAG, length, plain, 0);
        return plain;
    }

    private XSalsa20Engine stream(byte[] nonce) {
        XSalsa20Engine engine = new XSalsa20Engine();
        engine.init(true, new ParametersWithIV(new KeyParameter(key), nonce));
        return engine;
    }

    /** The one-time Poly1305 key: the first 32 bytes of the key stream. */
    private static byte[] polyKey(XSalsa20Engine stream) {
        byte[] polyKey = new byte[32];
        stream.processBytes(new byte[32], 0, 32, polyKey, 0);
        return polyKey;
    }

    private static byte[] tag(byte[] polyKey, byte[] text, int offset, int length) {
        Poly1305 mac = new Poly1305();
        mac.init(new KeyParameter(polyKey));
        mac.update(text, offset, length);
        byte[] tag = new byte[TAG];
        mac.doFinal(tag, 0);
        return tag;
    }
}
