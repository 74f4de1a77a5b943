package io.kapi.authn;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's authentication flags, as given (files not yet read). {@link #DEFAULT} is
 * kube-apiserver's default: anonymous requests allowed, no other authenticator but client certificates
 * of {@code clientCas} and service-account tokens. Immutable; change one value with the {@code with*}
 * methods.
 *
 * @param clientCas {@code --client-ca-file}, read
 * @param anonymous {@code --anonymous-auth}, or null when not given (then allowed, unless the
 *                  {@code --authentication-config} file says)
 * @param tokenAuthFile {@code --token-auth-file}, or null
 * @param basicAuthFile {@code --basic-auth-file}, or null (insecure; removed from kube in 1.19)
 * @param bootstrapTokens {@code --enable-bootstrap-token-auth}
 * @param serviceAccounts the {@code --service-account-*} and {@code --api-audiences} flags
 * @param oidc the {@code --oidc-*} flags, or null without {@code --oidc-issuer-url}
 * @param authenticationConfigFile {@code --authentication-config}, or null
 * @param webhookConfigFile {@code --authentication-token-webhook-config-file}, or null
 * @param webhookCacheTtl {@code --authentication-token-webhook-cache-ttl}
 * @param webhookVersion {@code --authentication-token-webhook-version} ({@code v1} or {@code v1beta1})
 * @param requestHeader the {@code --requestheader-*} flags, or null without a CA file
 * @param tokenCacheTtl how long a token's successful authentication is remembered (kube: 10 s)
 */
public record AuthenticationConfig(List<X509Certificate> clientCas, Boolean anonymous, Path tokenAuthFile,
                                   Path basicAuthFile, boolean bootstrapTokens, ServiceAccounts serviceAccounts,
                                   Oidc oidc, Path authenticationConfigFile, Path webhookConfigFile,
                                   Duration webhookCacheTtl, String webhookVersion, RequestHeader requestHeader,
                                   Duration tokenCacheTtl) {

    public static final AuthenticationConfig DEFAULT = new AuthenticationConfig(List.of(), null, null, null, false,
            ServiceAccounts.DEFAULT, null, null, null, Duration.ofMinutes(2), "v1beta1", null, Duration.ofSeconds(10));

    public AuthenticationConfig {
        clientCas = List.copyOf(clientCas);
    }

    /**
     * @param keyFiles {@code --service-account-key-file}: public (or private) keys that verify tokens
     * @param signingKeyFile {@code --service-account-signing-key-file}, or null (Kapi's own key)
     * @param issuers {@code --service-account-issuer}; the first signs, all are accepted
     * @param apiAudiences {@code --api-audiences}; empty means the issuers
     * @param lookup {@code --service-account-lookup}: the account (and bound object) must still exist
     * @param maxTokenExpiration {@code --service-account-max-token-expiration}, or null
     */
    public record ServiceAccounts(List<Path> keyFiles, Path signingKeyFile, List<String> issuers,
                                  List<String> apiAudiences, boolean lookup, Duration maxTokenExpiration) {

        public static final ServiceAccounts DEFAULT = new ServiceAccounts(List.of(), null, List.of(), List.of(),
                true, null);

        public ServiceAccounts {
            keyFiles = List.copyOf(keyFiles);
            issuers = List.copyOf(issuers);
            apiAudiences = List.copyOf(apiAudiences);
        }
    }

    /** The {@code --oidc-*} flags (one JWT issuer). */
    public record Oidc(String issuerUrl, String clientId, String usernameClaim, String usernamePrefix,
                       String groupsClaim, String groupsPrefix, Path caFile, Map<String, String> requiredClaims,
                       List<String> signingAlgs) {

        public Oidc {
            requiredClaims = Map.copyOf(requiredClaims);
            signingAlgs = List.copyOf(signingAlgs);
        }
    }

    /** The {@code --requestheader-*} flags. */
    public record RequestHeader(Path clientCaFile, List<String> allowedNames, List<String> usernameHeaders,
                                List<String> uidHeaders, List<String> groupHeaders, List<String> extraHeaderPrefixes) {

        public RequestHeader {
            allowedNames = List.copyOf(allowedNames);
            usernameHeaders = List.copyOf(usernameHeaders);
            uidHeaders = List.copyOf(uidHeaders);
            groupHeaders = List.copyOf(groupHeaders);
            extraHeaderPrefixes = List.copyOf(extraHeaderPrefixes);
        }
    }

    public AuthenticationConfig withClientCas(List<X509Certificate> v) {
        return new AuthenticationConfig(v, anonymous, tokenAuthFile, basicAuthFile, bootstrapTokens, serviceAccounts,
                oidc, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion, requestHeader,
                tokenCacheTtl);
    }

    public AuthenticationConfig withAnonymous(boolean v) {
        return new AuthenticationConfig(clientCas, v, tokenAuthFile, basicAuthFile, bootstrapTokens, serviceAccounts,
                oidc, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion, requestHeader,
                tokenCacheTtl);
    }

    public AuthenticationConfig withTokenAuthFile(Path v) {
        return new AuthenticationConfig(clientCas, anonymous, v, basicAuthFile, bootstrapTokens, serviceAccounts,
                oidc, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion, requestHeader,
                tokenCacheTtl);
    }

    public AuthenticationConfig withBasicAuthFile(Path v) {
        return new AuthenticationConfig(clientCas, anonymous, tokenAuthFile, v, bootstrapTokens, serviceAccounts,
                oidc, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion, requestHeader,
                tokenCacheTtl);
    }

    public AuthenticationConfig withBootstrapTokens(boolean v) {
        return new AuthenticationConfig(clientCas, anonymous, tokenAuthFile, basicAuthFile, v, serviceAccounts,
                oidc, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion, requestHeader,
                tokenCacheTtl);
    }

    public AuthenticationConfig withServiceAccounts(ServiceAccounts v) {
        return new AuthenticationConfig(clientCas, anonymous, tokenAuthFile, basicAuthFile, bootstrapTokens, v,
                oidc, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion, requestHeader,
                tokenCacheTtl);
    }

    public AuthenticationConfig withOidc(Oidc v) {
        return new AuthenticationConfig(clientCas, anonymous, tokenAuthFile, basicAuthFile, bootstrapTokens,
                serviceAccounts, v, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion,
                requestHeader, tokenCacheTtl);
    }

    public AuthenticationConfig withAuthenticationConfigFile(Path v) {
        return new AuthenticationConfig(clientCas, anonymous, tokenAuthFile, basicAuthFile, bootstrapTokens,
                serviceAccounts, oidc, v, webhookConfigFile, webhookCacheTtl, webhookVersion, requestHeader,
                tokenCacheTtl);
    }

    public AuthenticationConfig withWebhook(Path configFile, Duration cacheTtl, String version) {
        return new AuthenticationConfig(clientCas, anonymous, tokenAuthFile, basicAuthFile, bootstrapTokens,
                serviceAccounts, oidc, authenticationConfigFile, configFile, cacheTtl, version, requestHeader,
                tokenCacheTtl);
    }

    public AuthenticationConfig withRequestHeader(RequestHeader v) {
        return new AuthenticationConfig(clientCas, anonymous, tokenAuthFile, basicAuthFile, bootstrapTokens,
                serviceAccounts, oidc, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion,
                v, tokenCacheTtl);
    }

    public AuthenticationConfig withTokenCacheTtl(Duration v) {
        return new AuthenticationConfig(clientCas, anonymous, tokenAuthFile, basicAuthFile, bootstrapTokens,
                serviceAccounts, oidc, authenticationConfigFile, webhookConfigFile, webhookCacheTtl, webhookVersion,
                requestHeader, v);
    }
}
