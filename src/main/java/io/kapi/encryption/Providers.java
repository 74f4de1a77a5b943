package io.kapi.encryption;

import io.kapi.metrics.EncryptionMetrics;
import io.kapi.storage.ValueTransformer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One loaded configuration: each rule's providers flattened to prefixed keys in order (a provider's
 * keys in their order, the first writing), the KMS v2 providers with their plugin clients, and the
 * transformer of each resource as kube finds it: the resource's own rules, else its group's
 * {@code *.group}, else {@code *.*}, else identity.
 */
final class Providers implements AutoCloseable {

    private final Map<GroupResource, List<PrefixTransformers.Prefixed>> byResource = new HashMap<>();
    private final Map<String, KmsV2> kms = new LinkedHashMap<>();
    private final Map<GroupResource, ValueTransformer> transformers = new ConcurrentHashMap<>();
    private final EncryptionMetrics metrics;
    final byte[] digest;

    Providers(EncryptionConfiguration config, byte[] digest, EncryptionMetrics metrics, String apiServerId,
              Function<ProviderConfig.Kms, KmsClient> clients) {
        this.metrics = metrics;
        this.digest = digest;
        try {
            for (var rule : config.rules()) {
                List<PrefixTransformers.Prefixed> prefixed = new ArrayList<>();
                for (ProviderConfig p : rule.providers()) {
                    prefixed.addAll(prefixed(p, apiServerId, clients));
                }
                for (String resource : rule.resources()) {
                    byResource.computeIfAbsent(GroupResource.parse(resource), r -> new ArrayList<>()).addAll(prefixed);
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private List<PrefixTransformers.Prefixed> prefixed(ProviderConfig provider, String apiServerId,
                                                       Function<ProviderConfig.Kms, KmsClient> clients) {
        return switch (provider) {
            case ProviderConfig.Identity i -> List.of(new PrefixTransformers.Prefixed("", Identity.INSTANCE));
            case ProviderConfig.AesCbc c -> keys("aescbc", c.keys(), k -> new AesCbc(k.secret()));
            case ProviderConfig.AesGcm g -> keys("aesgcm", g.keys(), k -> new AesGcm(k.secret()));
            case ProviderConfig.Secretbox s -> keys("secretbox", s.keys(), k -> new Secretbox(k.secret()));
            case ProviderConfig.Kms k -> {
                KmsV2 v2 = kms.computeIfAbsent(k.name(), n -> new KmsV2(n, clients.apply(k), metrics, apiServerId,
                        Clock.systemUTC()));
                yield List.of(new PrefixTransformers.Prefixed("k8s:enc:kms:v2:" + k.name() + ":", v2));
            }
        };
    }

    private static List<PrefixTransformers.Prefixed> keys(String provider, List<ProviderConfig.Key> keys,
                                                          Function<ProviderConfig.Key, Cipher> cipher) {
        return keys.stream().map(k -> new PrefixTransformers.Prefixed("k8s:enc:" + provider + ":v1:" + k.name() + ":",
                cipher.apply(k))).toList();
    }

    /** The transformer of {@code resource} in {@code group} ({@code ""} for the core group). */
    ValueTransformer transformer(String group, String resource) {
        return transformers.computeIfAbsent(new GroupResource(group, resource), gr -> {
            for (GroupResource candidate : List.of(gr, new GroupResource(group, "*"), GroupResource.ANY)) {
                List<PrefixTransformers.Prefixed> found = byResource.get(candidate);
                if (found != null) {
                    return new PrefixTransformers(gr.toString(), found, metrics);
                }
            }
            return ValueTransformer.IDENTITY;
        });
    }

    /** The KMS v2 providers, in the order of the file. */
    List<KmsV2> kms() {
        return List.copyOf(kms.values());
    }

    @Override
    public void close() {
        kms.values().forEach(KmsV2::close);
    }

    static KmsClient client(ProviderConfig.Kms k, EncryptionMetrics metrics) {
        return new KmsClient(k.name(), k.endpoint(), k.timeout(), metrics);
    }
}
