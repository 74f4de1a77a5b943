package io.kapi.authn;

import io.kapi.admission.ObjectLookup;
import io.kapi.certs.Pem;
import io.kapi.machinery.GoDuration;
import io.kapi.webhook.KubeconfigWebhook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's authentication chain built from its flags, in kube's order: front-proxy request
 * headers, client certificates, (Kapi: basic auth), then bearer tokens (static file, service accounts,
 * bootstrap tokens, JWT issuers, webhook); then, only for a request that presented no credential,
 * anonymous. kube caches all token answers for {@code tokenCacheTtl}; Kapi caches only those of the JWT
 * issuers and the webhook, so a deleted service account, bound object or bootstrap token is refused at once.
 * With {@code AlwaysAllow} among the authorization modes anonymous requests reach only the public health
 * and version paths: kube-apiserver turns anonymous authentication off entirely with AlwaysAllow, Kapi
 * keeps the probes working.
 *
 * @param request authenticates requests
 * @param tokens authenticates bare tokens, for {@code TokenReview}
 */
public record Authentications(Authenticator request, TokenAuthenticator tokens) {

    private static final System.Logger LOG = System.getLogger(Authentications.class.getName());

    /**
     * @param serviceAccountKeys the public keys that verify service-account tokens (given files and the signing key)
     * @param issuers the service-account issuers (never empty)
     * @param objects where accounts, secrets, pods and nodes are looked up
     * @param legacyUse told of each use of a legacy service-account token
     * @throws IllegalArgumentException for an unreadable or invalid file
     */
    public static Authentications build(AuthenticationConfig config, List<String> authorizationModes,
                                        List<PublicKey> serviceAccountKeys, List<String> issuers,
                                        ObjectLookup objects, LegacyTokenUse legacyUse, Clock clock) {
        List<Authenticator> chain = new ArrayList<>();
        AuthenticationConfig.RequestHeader rh = config.requestHeader();
        if (rh != null && rh.clientCaFile() != null) {
            chain.add(new RequestHeaderAuthenticator(Pem.certificates(read(rh.clientCaFile())), rh));
        }
        chain.add(new ClientCertificateAuthenticator(config.clientCas()));
        if (config.basicAuthFile() != null) {
            LOG.log(Level.WARNING, "--basic-auth-file is insecure (passwords sent with every request, kept in a "
                    + "plain file) and was removed from kube-apiserver in 1.19; prefer client certificates or tokens");
            chain.add(BasicAuthFile.read(config.basicAuthFile()));
        }
        AuthenticationConfigFile file = config.authenticationConfigFile() == null ? null
                : AuthenticationConfigFile.read(config.authenticationConfigFile(), issuers);
        TokenAuthenticator tokens = TokenAuthenticator.union(tokenAuthenticators(config, file, serviceAccountKeys,
                issuers, objects, legacyUse, clock));
        chain.add(new BearerTokens(tokens));
        Authenticator credentials = Authenticator.union(chain);
        AnonymousAuthenticator anonymous = anonymous(config, file, authorizationModes);
        return new Authentications(anonymous == null ? credentials : Authenticator.failOnError(credentials, anonymous),
                tokens);
    }

    /**
     * The anonymous authenticator the flags and the configuration file ask for; null with {@code AlwaysAllow}
     * and nothing said (then the authentication filter's own rule: anonymous only on the public paths).
     */
    private static AnonymousAuthenticator anonymous(AuthenticationConfig config, AuthenticationConfigFile file,
                                                    List<String> authorizationModes) {
        AuthenticationConfigFile.Anonymous anonymous = file == null ? null : file.anonymous();
        if (anonymous != null) {
            return new AnonymousAuthenticator(anonymous.enabled(), anonymous.paths());
        } else if (Boolean.FALSE.equals(config.anonymous())) {
            return new AnonymousAuthenticator(false, List.of());
        } else if (!authorizationModes.contains("AlwaysAllow")) {
            return new AnonymousAuthenticator(true, List.of());
        }
        return null;
    }

    private static List<TokenAuthenticator> tokenAuthenticators(AuthenticationConfig config,
                                                                AuthenticationConfigFile file, List<PublicKey> keys,
                                                                List<String> issuers, ObjectLookup objects,
                                                                LegacyTokenUse legacyUse, Clock clock) {
        List<TokenAuthenticator> tokens = new ArrayList<>();
        AuthenticationConfig.ServiceAccounts sa = config.serviceAccounts();
        List<String> apiAudiences = sa.apiAudiences().isEmpty() ? issuers : sa.apiAudiences();
        if (config.tokenAuthFile() != null) {
            tokens.add(new AudienceAgnostic(apiAudiences, TokenFile.read(config.tokenAuthFile())));
        }
        tokens.add(new ServiceAccountTokens(keys, issuers, apiAudiences, objects, sa.lookup(), legacyUse, clock));
        if (config.bootstrapTokens()) {
            tokens.add(new AudienceAgnostic(apiAudiences, new BootstrapTokens(objects, clock)));
        }
        if (config.oidc() != null) {
            tokens.add(new AudienceAgnostic(apiAudiences, cached(config,
                    new JwtAuthenticator(AuthenticationConfigFile.fromFlags(config.oidc()), clock), clock)));
        }
        if (file != null) {
            for (JwtIssuer issuer : file.jwt()) {
                tokens.add(new AudienceAgnostic(apiAudiences, cached(config, new JwtAuthenticator(issuer, clock), clock)));
            }
        }
        if (config.webhookConfigFile() != null) {
            KubeconfigWebhook client = KubeconfigWebhook.fromKubeconfig(config.webhookConfigFile(), Duration.ofSeconds(30));
            Duration ttl = config.webhookCacheTtl();
            if (ttl.isPositive() && config.tokenCacheTtl().isPositive() && ttl.compareTo(config.tokenCacheTtl()) < 0) {
                LOG.log(Level.WARNING, "the webhook cache ttl of {0} is shorter than the overall cache ttl of {1} for "
                        + "successful token authentication attempts.", GoDuration.format(ttl),
                        GoDuration.format(config.tokenCacheTtl()));
            }
            tokens.add(cached(config, new TokenCache(new WebhookTokenAuthenticator(client, config.webhookVersion(),
                    apiAudiences), config.webhookCacheTtl(), config.webhookCacheTtl(), clock), clock));
        }
        return tokens;
    }

    /** {@code tokens} behind kube's token cache ({@code tokenCacheTtl} for an accepted token, none for a refused one). */
    private static TokenAuthenticator cached(AuthenticationConfig config, TokenAuthenticator tokens, Clock clock) {
        return config.tokenCacheTtl().isPositive() ? new TokenCache(tokens, config.tokenCacheTtl(), Duration.ZERO, clock)
                : tokens;
    }

    /** The public keys of {@code --service-account-key-file} files. */
    public static List<PublicKey> publicKeys(List<Path> files) {
        List<PublicKey> keys = new ArrayList<>();
        for (Path file : files) {
            keys.addAll(Pem.publicKeys(read(file)));
        }
        return keys;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
