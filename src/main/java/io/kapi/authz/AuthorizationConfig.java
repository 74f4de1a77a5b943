package io.kapi.authz;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The files and settings of kube-apiserver's authorization modes besides {@code --authorization-mode}
 * itself. Immutable; {@link #DEFAULT} has kube's defaults.
 *
 * @param policyFile {@code --authorization-policy-file} (ABAC), or null
 * @param webhookConfigFile {@code --authorization-webhook-config-file}, or null
 * @param webhookAuthorizedTtl {@code --authorization-webhook-cache-authorized-ttl}
 * @param webhookUnauthorizedTtl {@code --authorization-webhook-cache-unauthorized-ttl}
 * @param webhookVersion {@code --authorization-webhook-version} ({@code v1} or {@code v1beta1})
 * @param configFile {@code --authorization-config}, or null (then the modes decide)
 */
public record AuthorizationConfig(Path policyFile, Path webhookConfigFile, Duration webhookAuthorizedTtl,
                                  Duration webhookUnauthorizedTtl, String webhookVersion, Path configFile) {

    public static final AuthorizationConfig DEFAULT = new AuthorizationConfig(null, null, Duration.ofMinutes(5),
            Duration.ofSeconds(30), "v1beta1", null);

    public AuthorizationConfig withPolicyFile(Path v) {
        return new AuthorizationConfig(v, webhookConfigFile, webhookAuthorizedTtl, webhookUnauthorizedTtl,
                webhookVersion, configFile);
    }

    public AuthorizationConfig withWebhook(Path file, Duration authorizedTtl, Duration unauthorizedTtl, String version) {
        return new AuthorizationConfig(policyFile, file, authorizedTtl, unauthorizedTtl, version, configFile);
    }

    public AuthorizationConfig withConfigFile(Path v) {
        return new AuthorizationConfig(policyFile, webhookConfigFile, webhookAuthorizedTtl, webhookUnauthorizedTtl,
                webhookVersion, v);
    }
}
