package io.kapi.encryption;

import io.kapi.metrics.EncryptionMetrics;
import io.kapi.storage.ValueTransformer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * One resource's providers, as kube's {@code prefixTransformers}: the first writes, with its prefix in
 * front of the value; a read goes to the first provider whose prefix the value starts with. Identity has
 * no prefix and refuses encrypted values, so that a configuration with identity first (decrypting a
 * cluster) still reads what the later providers wrote. A value read by any other than the first is stale:
 * the next update rewrites it, even unchanged.
 */
final class PrefixTransformers implements ValueTransformer {

    /** A provider's key under its prefix ({@code k8s:enc:aescbc:v1:key1:}, empty for identity). */
    record Prefixed(String prefix, Cipher cipher) {
        byte[] bytes() {
            return prefix.getBytes(StandardCharsets.US_ASCII);
        }
    }

    private final String resource;
    private final List<Prefixed> providers;
    private final byte[][] prefixes;
    private final EncryptionMetrics metrics;

    PrefixTransformers(String resource, List<Prefixed> providers, EncryptionMetrics metrics) {
        this.resource = resource;
        this.providers = List.copyOf(providers);
        this.prefixes = this.providers.stream().map(Prefixed::bytes).toArray(byte[][]::new);
        this.metrics = metrics;
    }

    @Override
    public byte[] toStorage(byte[] plain, String key) {
        long start = System.nanoTime();
        Prefixed writer = providers.getFirst();
        try {
            byte[] sealed = writer.cipher().seal(plain, key.getBytes(StandardCharsets.UTF_8));
            byte[] out = Arrays.copyOf(prefixes[0], prefixes[0].length + sealed.length);
            System.arraycopy(sealed, 0, out, prefixes[0].length, sealed.length);
            metrics.transformation(resource, "to_storage", writer.prefix(), "OK", start);
            return out;
        } catch (RuntimeException e) {
            metrics.transformation(resource, "to_storage", writer.prefix(), status(e), start);
            throw e;
        }
    }

    @Override
    public byte[] fromStorage(byte[] stored, String key) {
        long start = System.nanoTime();
        RuntimeException identityRefused = null;
        for (int i = 0; i < providers.size(); i++) {
            if (!startsWith(stored, prefixes[i])) {
                continue;
            }
            Prefixed p = providers.get(i);
            try {
                byte[] plain = p.cipher().open(Arrays.copyOfRange(stored, prefixes[i].length, stored.length),
                        key.getBytes(StandardCharsets.UTF_8));
                metrics.transformation(resource, "from_storage", p.prefix(), "OK", start);
                return plain;
            } catch (RuntimeException e) {
                if (prefixes[i].length == 0) {
                    identityRefused = e; // an encrypted value: a later provider may read it
                    continue;
                }
                metrics.transformation(resource, "from_storage", p.prefix(), status(e), start);
                throw e;
            }
        }
        if (identityRefused != null) {
            metrics.transformation(resource, "from_storage", "", status(identityRefused), start);
            throw identityRefused;
        }
        metrics.transformation(resource, "from_storage", "unknown", "Unknown", start);
        throw new IllegalStateException("no matching prefix found");
    }

    @Override
    public boolean stale(byte[] stored, String key) {
        for (int i = 0; i < providers.size(); i++) {
            if (startsWith(stored, prefixes[i])) {
                if (prefixes[i].length == 0 && Identity.encrypted(stored)) {
                    continue;
                }
                return i != 0 || providers.get(i).cipher().stale(Arrays.copyOfRange(stored, prefixes[i].length,
                        stored.length));
            }
        }
        return true;
    }

    private static String status(RuntimeException e) {
        return e instanceof KmsException k ? k.code() : "Unknown";
    }

    private static boolean startsWith(byte[] value, byte[] prefix) {
        return value.length >= prefix.length && Arrays.equals(value, 0, prefix.length, prefix, 0, prefix.length);
    }
}
