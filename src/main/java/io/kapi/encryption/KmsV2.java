package io.kapi.encryption;

import io.kapi.metrics.EncryptionMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@code kms} provider of apiVersion v2, as kube-apiserver 1.34 runs one. Writes use a locally
 * generated seed ({@link HkdfGcm}) whose encrypted form the plugin made once; the value stored after
 * {@code k8s:enc:kms:v2:<name>:} is the {@code EncryptedObject}. Reads decrypt an object's seed through
 * the plugin once and keep it, by its encrypted form, key ID and annotations, for a day after last use.
 *
 * <p>The plugin's Status is polled ({@link #probe}: every minute while healthy, by the health checks and
 * a background loop); a new key ID there makes a new seed, and values under an older key ID read as stale,
 * so rewriting them moves them to the new key. Writes stop when no Status has succeeded for three minutes
 * (kube's {@code kmsv2PluginWriteDEKSourceMaxTTL}): the seed is no longer known to be current.
 */
final class KmsV2 implements Cipher, AutoCloseable {

    static final Duration HEALTHY_TTL = Duration.ofMinutes(1);
    static final Duration UNHEALTHY_TTL = Duration.ofSeconds(10);
    static final Duration WRITE_STATE_TTL = Duration.ofMinutes(3);
    private static final Duration CACHE_TTL = Duration.ofHours(24);
    private static final int MAX_KEY_ID = 1024;

    /** The write state: seed, its encrypted form and key ID, valid until {@code expires}. */
    private record State(HkdfGcm seed, byte[] encryptedSeed, String keyId, Map<String, byte[]> annotations,
                         Instant expires) {
    }

    private record Cached(HkdfGcm seed, Instant lastUsed) {
    }

    private record Probe(Instant at, RuntimeException failure) {
    }

    private final String name;
    private final KmsClient client;
    private final EncryptionMetrics metrics;
    private final String apiServerId;
    private final Clock clock;
    private final AtomicReference<State> state = new AtomicReference<>();
    private final AtomicReference<Probe> lastProbe = new AtomicReference<>();
    private final Map<String, Cached> seeds = new ConcurrentHashMap<>();

    KmsV2(String name, KmsClient client, EncryptionMetrics metrics, String apiServerId, Clock clock) {
        this.name = name;
        this.client = client;
        this.metrics = metrics;
        this.apiServerId = apiServerId;
        this.clock = clock;
    }

    String name() {
        return name;
    }

    /**
     * The plugin's health, from its last Status if recent enough, else from a new call; a changed key ID
     * makes a new seed.
     *
     * @throws RuntimeException when the plugin is unreachable, unhealthy or gives an unusable key ID
     */
    void probe() {
        Probe last = lastProbe.get();
        Instant now = clock.instant();
        if (last != null && now.isBefore(last.at().plus(last.failure() == null ? HEALTHY_TTL : UNHEALTHY_TTL))) {
            if (last.failure() != null) {
                throw last.failure();
            }
            return;
        }
        try {
            refresh();
            lastProbe.set(new Probe(now, null));
        } catch (RuntimeException e) {
            lastProbe.set(new Probe(now, e));
            throw e;
        }
    }

    /** One Status call; a new seed when the key ID is not the write state's. */
    void refresh() {
        KmsMessages.StatusResponse status = client.status();
        if (!status.healthz().equals("ok")) {
            throw new IllegalStateException("got unexpected healthz status: " + status.healthz());
        }
        if (!status.version().equals("v2") && !status.version().equals("v2beta1")) {
            throw new IllegalStateException("expected KMSv2 API version v2, got " + status.version());
        }
        if (status.keyId().isEmpty() || status.keyId().length() > MAX_KEY_ID) {
            String error = status.keyId().isEmpty() ? "empty" : "too_long";
            metrics.invalidKeyIdFromStatus(name, error);
            throw new IllegalStateException("got invalid KMSv2 KeyID " + (status.keyId().isEmpty() ? "\"\"" : "hash")
                    + ": keyID is " + error);
        }
        metrics.keyIdFromStatus(name, status.keyId(), apiServerId);
        Instant expires = clock.instant().plus(WRITE_STATE_TTL);
        State current = state.get();
        if (current != null && current.keyId().equals(status.keyId())) {
            state.set(new State(current.seed(), current.encryptedSeed(), current.keyId(), current.annotations(), expires));
            return;
        }
        HkdfGcm seed = HkdfGcm.generate();
        KmsMessages.EncryptResponse encrypted = client.encrypt(seed.seed());
        if (encrypted.ciphertext().length == 0 || encrypted.ciphertext().length > 1024) {
            throw new IllegalStateException("failed to validate encrypted DEK source: encrypted DEK source is "
                    + (encrypted.ciphertext().length == 0 ? "empty" : encrypted.ciphertext().length + " bytes"));
        }
        seeds.put(cacheKey(encrypted.ciphertext(), encrypted.keyId(), encrypted.annotations()),
                new Cached(seed, clock.instant()));
        state.set(new State(seed, encrypted.ciphertext(), encrypted.keyId(), encrypted.annotations(), expires));
        metrics.dekSourceCacheSize(name, seeds.size());
    }

    @Override
    public byte[] seal(byte[] plain, byte[] aad) {
        State s = state.get();
        if (s == null) {
            refresh();
            s = state.get();
        }
        Instant now = clock.instant();
        if (now.isAfter(s.expires())) {
            throw new IllegalStateException("encryptedDEKSource with keyID hash \"" + hash(s.keyId()) + "\" expired at "
                    + s.expires() + " (current time is " + now + ")");
        }
        byte[] data = s.seed().seal(plain, aad);
        metrics.keyIdUsed("to_storage", name, s.keyId(), apiServerId);
        return KmsMessages.encryptedObject(new KmsMessages.EncryptedObject(data, s.keyId(), s.encryptedSeed(),
                s.annotations(), KmsMessages.HKDF_SHA256_XNONCE_AES_GCM_SEED));
    }

    @Override
    public byte[] open(byte[] stored, byte[] aad) {
        KmsMessages.EncryptedObject o = decode(stored);
        String key = cacheKey(o.encryptedDekSource(), o.keyId(), o.annotations());
        Cached cached = seeds.get(key);
        Cipher cipher;
        if (cached != null) {
            cipher = cached.seed();
        } else {
            metrics.dekCacheMiss();
            byte[] plain;
            try {
                plain = client.decrypt(o.encryptedDekSource(), o.keyId(), o.annotations());
            } catch (KmsException e) {
                throw new KmsException(e.code(), "failed to decrypt DEK, error: " + e.getMessage());
            }
            cipher = o.dekSourceType() == KmsMessages.HKDF_SHA256_XNONCE_AES_GCM_SEED ? new HkdfGcm(plain) : new AesGcm(plain);
        }
        byte[] plain = cipher.open(o.encryptedData(), aad);
        if (cipher instanceof HkdfGcm seed) {
            seeds.put(key, new Cached(seed, clock.instant()));
            evictOld();
        }
        metrics.keyIdUsed("from_storage", name, o.keyId(), apiServerId);
        return plain;
    }

    @Override
    public boolean stale(byte[] stored) {
        State s = state.get();
        KmsMessages.EncryptedObject o = decode(stored);
        return s == null || !o.keyId().equals(s.keyId()) || o.dekSourceType() != KmsMessages.HKDF_SHA256_XNONCE_AES_GCM_SEED;
    }

    private void evictOld() {
        Instant limit = clock.instant().minus(CACHE_TTL);
        seeds.values().removeIf(c -> c.lastUsed().isBefore(limit));
        metrics.dekSourceCacheSize(name, seeds.size());
    }

    /** The stored object, checked as kube's {@code ValidateEncryptedObject} checks it. */
    static KmsMessages.EncryptedObject decode(byte[] stored) {
        KmsMessages.EncryptedObject o = KmsMessages.encryptedObject(stored);
        if (o.dekSourceType() != KmsMessages.AES_GCM_KEY && o.dekSourceType() != KmsMessages.HKDF_SHA256_XNONCE_AES_GCM_SEED) {
            throw new IllegalStateException("unknown encryptedDEKSourceType: " + o.dekSourceType());
        }
        if (o.encryptedData().length == 0) {
            throw new IllegalStateException("encrypted data is empty");
        }
        if (o.encryptedDekSource().length == 0) {
            throw new IllegalStateException("failed to validate encrypted DEK source: encrypted DEK source is empty");
        }
        if (o.keyId().isEmpty()) {
            throw new IllegalStateException("failed to validate key id: keyID is empty");
        }
        return o;
    }

    private static String cacheKey(byte[] encryptedSeed, String keyId, Map<String, byte[]> annotations) {
        StringBuilder key = new StringBuilder(Base64.getEncoder().encodeToString(encryptedSeed)).append('|').append(keyId);
        new java.util.TreeMap<>(annotations).forEach((k, v) -> key.append('|').append(k).append('=')
                .append(Base64.getEncoder().encodeToString(v)));
        return key.toString();
    }

    private static String hash(String keyId) {
        try {
            return "sha256:" + HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(keyId.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
