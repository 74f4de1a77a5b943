package io.kapi.metrics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * kube-apiserver's encryption-at-rest families ({@code k8s.io/apiserver/pkg/storage/value} and
 * {@code .../encrypt/envelope/metrics}, 1.34's names and labels): each value transformation by direction
 * and provider prefix, the KMS v2 key IDs in use (as hashes, never the IDs), the plugin's calls, the
 * data key cache, and the automatic reloads of the configuration.
 */
public final class EncryptionMetrics {

    private final HistogramFamily duration;
    private final CounterFamily operations;
    private final CounterFamily keyIdUsed;
    private final GaugeFamily keyIdLastUsed;
    private final GaugeFamily keyIdFromStatus;
    private final CounterFamily invalidKeyId;
    private final HistogramFamily kmsLatency;
    private final GaugeFamily dekSourceCacheSize;
    private final CounterFamily cacheMisses;
    private final CounterFamily reloads;
    private final GaugeFamily lastReload;

    EncryptionMetrics(Metrics metrics) {
        duration = metrics.histogram(Definition.of("apiserver_storage_transformation_duration_seconds", Stability.ALPHA,
                "Latencies in seconds of value transformation operations.", "transformation_type", "transformer_prefix"),
                Metrics.exponential(5e-6, 2, 25));
        operations = metrics.counter(Definition.of("apiserver_storage_transformation_operations_total", Stability.ALPHA,
                "Total number of transformations. Successful transformation will have a status 'OK' and a varied status "
                        + "string when the transformation fails. The status, resource, and transformation_type fields can "
                        + "be used for alerting purposes. For example, you can monitor for encryption/decryption failures "
                        + "using the transformation_type (e.g., from_storage for decryption and to_storage for encryption). "
                        + "Additionally, these fields can be used to ensure that the correct transformers are applied to "
                        + "each resource.", "resource", "status", "transformation_type", "transformer_prefix"));
        keyIdUsed = metrics.counter(Definition.of("apiserver_envelope_encryption_key_id_hash_total", Stability.ALPHA,
                "Number of times a keyID is used split by transformation type, provider, and apiserver identity.",
                "apiserver_id_hash", "key_id_hash", "provider_name", "transformation_type"));
        keyIdLastUsed = metrics.gauge(Definition.of("apiserver_envelope_encryption_key_id_hash_last_timestamp_seconds",
                Stability.ALPHA, "The last time in seconds when a keyID was used.", "apiserver_id_hash", "key_id_hash",
                "provider_name", "transformation_type"));
        keyIdFromStatus = metrics.gauge(Definition.of(
                "apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds", Stability.ALPHA,
                "The last time in seconds when a keyID was returned by the Status RPC call.", "apiserver_id_hash",
                "key_id_hash", "provider_name"));
        invalidKeyId = metrics.counter(Definition.of("apiserver_envelope_encryption_invalid_key_id_from_status_total",
                Stability.ALPHA, "Number of times an invalid keyID is returned by the Status RPC call split by error.",
                "error", "provider_name"));
        kmsLatency = metrics.histogram(Definition.of("apiserver_envelope_encryption_kms_operations_latency_seconds",
                Stability.ALPHA, "KMS operation duration with gRPC error code status total.", "grpc_status_code",
                "method_name", "provider_name"), Metrics.exponential(0.0001, 2, 15));
        dekSourceCacheSize = metrics.gauge(Definition.of("apiserver_envelope_encryption_dek_source_cache_size",
                Stability.ALPHA, "Number of records in data encryption key (DEK) source cache. On a restart, this value "
                        + "is an approximation of the number of decrypt RPC calls the server will make to the KMS plugin.",
                "provider_name"));
        cacheMisses = metrics.counter(Definition.of("apiserver_storage_envelope_transformation_cache_misses_total",
                Stability.ALPHA, "Total number of cache misses while accessing key decryption key(KEK)."));
        reloads = metrics.counter(Definition.of("apiserver_encryption_config_controller_automatic_reloads_total",
                Stability.ALPHA, "Total number of reload successes and failures of encryption configuration split by "
                        + "apiserver identity.", "apiserver_id_hash", "status"));
        lastReload = metrics.gauge(Definition.of(
                "apiserver_encryption_config_controller_automatic_reload_last_timestamp_seconds", Stability.ALPHA,
                "Timestamp of the last successful or failed automatic reload of encryption configuration split by "
                        + "apiserver identity.", "apiserver_id_hash", "status"));
    }

    /**
     * One transformation of a value of {@code resource} ({@code secrets}, {@code widgets.example.com}).
     *
     * @param type {@code to_storage} or {@code from_storage}
     * @param prefix the provider's prefix ({@code k8s:enc:aesgcm:v1:key1:}, empty for identity)
     * @param status {@code OK}, or the gRPC code name of the failure ({@code Unknown} for a local one)
     */
    public void transformation(String resource, String type, String prefix, String status, long startNanos) {
        duration.observeSince(startNanos, type, prefix);
        operations.inc(resource, status, type, prefix);
    }

    /** A KMS v2 key ID used to {@code type} a value. */
    public void keyIdUsed(String type, String provider, String keyId, String apiServerId) {
        String keyHash = hash(keyId);
        String serverHash = hash(apiServerId);
        keyIdUsed.inc(serverHash, keyHash, provider, type);
        keyIdLastUsed.set(System.currentTimeMillis() / 1000.0, serverHash, keyHash, provider, type);
    }

    /** The key ID a plugin's Status call returned. */
    public void keyIdFromStatus(String provider, String keyId, String apiServerId) {
        keyIdFromStatus.set(System.currentTimeMillis() / 1000.0, hash(apiServerId), hash(keyId), provider);
    }

    /** A Status call returned an unusable key ID: {@code error} is {@code empty} or {@code too_long}. */
    public void invalidKeyIdFromStatus(String provider, String error) {
        invalidKeyId.inc(error, provider);
    }

    /** One call to a KMS plugin ({@code /v2.KeyManagementService/Status}, ...) and its gRPC code name. */
    public void kmsCall(String provider, String method, String code, long startNanos) {
        kmsLatency.observeSince(startNanos, code, method, provider);
    }

    public void dekSourceCacheSize(String provider, int size) {
        dekSourceCacheSize.set(size, provider);
    }

    public void dekCacheMiss() {
        cacheMisses.inc();
    }

    /** An automatic reload of the configuration, {@code success} or {@code failure}. */
    public void reload(boolean success, String apiServerId) {
        String status = success ? "success" : "failure";
        reloads.inc(hash(apiServerId), status);
        lastReload.set(System.currentTimeMillis() / 1000.0, hash(apiServerId), status);
    }

    /** kube's {@code sha256:<hex>} of an ID, so that key IDs do not leak through /metrics. */
    static String hash(String id) {
        if (id.isEmpty()) {
            return "";
        }
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(id.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
