package io.kapi.encryption;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoDuration;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * {@code --encryption-provider-config}: kind {@code EncryptionConfiguration} of
 * {@code apiserver.config.k8s.io/v1}, YAML or JSON, validated as kube-apiserver 1.34 validates it
 * ({@link ConfigValidation}, kube's words and field paths).
 *
 * @param rules the {@code resources} entries, in file order
 */
public record EncryptionConfiguration(List<ResourceRule> rules) {

    static final Duration DEFAULT_KMS_TIMEOUT = Duration.ofSeconds(3);

    public EncryptionConfiguration {
        rules = List.copyOf(rules);
    }

    /**
     * One {@code resources} entry: which resources ({@code secrets}, {@code widgets.example.com},
     * {@code *.apps}, {@code *.} for the core group, {@code *.*}) and their providers, the first writing.
     */
    public record ResourceRule(List<String> resources, List<ProviderConfig> providers) {
        public ResourceRule {
            resources = List.copyOf(resources);
            providers = List.copyOf(providers);
        }
    }

    /**
     * Reads and validates {@code file}.
     *
     * @param reload whether {@code --encryption-provider-config-automatic-reload} is on (kube validates
     *        names of KMS providers more strictly then)
     * @throws IllegalArgumentException with kube-apiserver's words when it cannot be read or is invalid
     */
    public static EncryptionConfiguration read(Path file, boolean reload) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("error reading encryption provider configuration file \"" + file
                    + "\": " + e.getMessage());
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException("encryption provider config is empty");
        }
        JsonNode root;
        try {
            root = Json.yaml().readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("error decoding encryption provider configuration file \"" + file
                    + "\": " + e.getMessage());
        }
        String apiVersion = root == null ? "" : root.path("apiVersion").asText("");
        String kind = root == null ? "" : root.path("kind").asText("");
        if (!apiVersion.equals("apiserver.config.k8s.io/v1") || !kind.equals("EncryptionConfiguration")) {
            throw new IllegalArgumentException("error decoding encryption provider configuration file \"" + file
                    + "\": no kind \"" + kind + "\" is registered for version \"" + apiVersion + "\"");
        }
        ConfigValidation validation = new ConfigValidation(reload);
        EncryptionConfiguration config = parse(root, validation);
        validation.check(config);
        return config;
    }

    private static EncryptionConfiguration parse(JsonNode root, ConfigValidation validation) {
        List<ResourceRule> rules = new ArrayList<>();
        JsonNode resources = root.path("resources");
        for (int i = 0; i < resources.size(); i++) {
            JsonNode rule = resources.get(i);
            List<String> names = new ArrayList<>();
            rule.path("resources").forEach(n -> names.add(n.asText()));
            List<ProviderConfig> providers = new ArrayList<>();
            JsonNode list = rule.path("providers");
            for (int j = 0; j < list.size(); j++) {
                String path = "resources[" + i + "].providers[" + j + "]";
                ProviderConfig provider = provider(list.get(j), path, validation);
                if (provider != null) {
                    providers.add(provider);
                }
            }
            rules.add(new ResourceRule(names, providers));
        }
        return new EncryptionConfiguration(rules);
    }

    /** The provider of one {@code providers} entry, or null when it has none or several (reported). */
    private static ProviderConfig provider(JsonNode entry, String path, ConfigValidation validation) {
        List<String> kinds = new ArrayList<>();
        entry.fieldNames().forEachRemaining(kinds::add);
        kinds.retainAll(List.of("kms", "aesgcm", "aescbc", "secretbox", "identity"));
        if (kinds.isEmpty()) {
            validation.invalid(path, "provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, "
                    + "Secretbox, Identity");
            return null;
        }
        if (kinds.size() > 1) {
            validation.invalid(path, "more than one provider specified in a single element, should split into "
                    + "different list elements");
            return null;
        }
        JsonNode body = entry.get(kinds.getFirst());
        String at = path + "." + kinds.getFirst();
        return switch (kinds.getFirst()) {
            case "identity" -> new ProviderConfig.Identity();
            case "aescbc" -> new ProviderConfig.AesCbc(keys(body, at + ".keys", ConfigValidation.AES_SIZES, validation));
            case "aesgcm" -> new ProviderConfig.AesGcm(keys(body, at + ".keys", ConfigValidation.AES_SIZES, validation));
            case "secretbox" -> new ProviderConfig.Secretbox(keys(body, at + ".keys", List.of(32), validation));
            default -> kms(body, at, validation);
        };
    }

    private static List<ProviderConfig.Key> keys(JsonNode body, String path, List<Integer> sizes,
                                                 ConfigValidation validation) {
        JsonNode keys = body.path("keys");
        if (keys.isEmpty()) {
            validation.required(path, "at least one keys is required");
        }
        List<ProviderConfig.Key> out = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            String at = path + "[" + k + "]";
            String name = keys.get(k).path("name").asText("");
            String secret = keys.get(k).path("secret").asText("");
            if (name.isEmpty()) {
                validation.required(at + ".name", "name is a mandatory field for a key");
            }
            if (secret.isEmpty()) {
                validation.required(at + ".secret", "secret is a mandatory field for a key");
                continue;
            }
            byte[] raw;
            try {
                raw = Base64.getDecoder().decode(secret);
            } catch (IllegalArgumentException e) {
                validation.invalidRedacted(at + ".secret", "secrets must be base64 encoded");
                continue;
            }
            if (!sizes.contains(raw.length)) {
                validation.invalidRedacted(at + ".secret", "secret is not of the expected length, got " + raw.length
                        + ", expected one of " + sizes.toString().replace(",", ""));
                continue;
            }
            out.add(new ProviderConfig.Key(name, raw));
        }
        return out;
    }

    private static ProviderConfig kms(JsonNode body, String path, ConfigValidation validation) {
        String apiVersion = body.path("apiVersion").asText("v1");
        Duration timeout = DEFAULT_KMS_TIMEOUT;
        if (body.hasNonNull("timeout")) {
            try {
                timeout = GoDuration.parse(body.get("timeout").asText());
            } catch (IllegalArgumentException e) {
                validation.invalid(path + ".timeout", "timeout should be a positive value");
            }
        }
        if (!apiVersion.equals("v1") && body.has("cachesize")) {
            validation.invalid(path + ".cachesize", body.get("cachesize").asText(), "cachesize is not supported in v2");
        }
        return new ProviderConfig.Kms(body.path("name").asText(""), body.path("endpoint").asText(""), timeout,
                apiVersion);
    }
}
