package io.kapi.encryption;

import java.time.Duration;
import java.util.List;

/**
 * One entry of a resource rule's {@code providers}: exactly one of kube's five kinds. The first provider
 * of a rule writes; every provider of the rule reads.
 */
public sealed interface ProviderConfig {

    /** {@code identity}: values stored as they are encoded. */
    record Identity() implements ProviderConfig {
    }

    /** {@code aescbc}: AES-CBC with PKCS#7 padding, a random IV per value. */
    record AesCbc(List<Key> keys) implements ProviderConfig {
        public AesCbc {
            keys = List.copyOf(keys);
        }
    }

    /** {@code aesgcm}: AES-GCM with a random nonce per value, the storage key as authenticated data. */
    record AesGcm(List<Key> keys) implements ProviderConfig {
        public AesGcm {
            keys = List.copyOf(keys);
        }
    }

    /** {@code secretbox}: XSalsa20-Poly1305 with a random nonce per value. */
    record Secretbox(List<Key> keys) implements ProviderConfig {
        public Secretbox {
            keys = List.copyOf(keys);
        }
    }

    /**
     * {@code kms} (apiVersion v2): envelope encryption, the data keys encrypted by a plugin on a unix socket.
     *
     * @param endpoint {@code unix:///path/to/socket}
     * @param timeout each call to the plugin (kube's default 3s)
     */
    record Kms(String name, String endpoint, Duration timeout, String apiVersion) implements ProviderConfig {
    }

    /** A named key: {@code secret} is the base64 of the raw key bytes. */
    record Key(String name, byte[] secret) {
    }
}
