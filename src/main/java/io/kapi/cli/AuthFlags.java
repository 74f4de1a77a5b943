package io.kapi.cli;

import io.kapi.authn.AuthenticationConfig.Oidc;
import io.kapi.authn.AuthenticationConfig.RequestHeader;
import io.kapi.authn.AuthenticationConfig.ServiceAccounts;
import io.kapi.authn.AuthenticationConfig;
import io.kapi.authz.AuthorizationConfig;
import io.kapi.machinery.GoBool;
import io.kapi.machinery.GoDuration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * The authentication and authorization flags Kapi acts on, beyond the few {@link Flags} defines: their
 * names, types, defaults and help are kube-apiserver's (from the flags data file), only what they do is
 * defined here. Plus Kapi's {@code --basic-auth-file}, which kube-apiserver removed in 1.19.
 */
final class AuthFlags {

    private AuthFlags() {
    }

    /** The flags, built on kube-apiserver's descriptions in {@code kube}. */
    static List<Flag> all(List<Flag> kube) {
        Map<String, BiConsumer<Options.Builder, String>> appliers = appliers();
        List<Flag> flags = new ArrayList<>();
        for (Flag f : kube) {
            BiConsumer<Options.Builder, String> apply = appliers.get(f.name());
            if (apply != null) {
                flags.add(new Flag(f.name(), f.shorthand(), f.section(), f.type(), f.defaultValue(), f.usage(), true,
                        f.list(), (b, v) -> {
                            KubeFlags.check(f.type(), v);
                            apply.accept(b, v);
                        }));
            }
        }
        flags.add(new Flag("basic-auth-file", null, Flags.AUTHENTICATION, "string", null,
                "If set, the file that will be used to admit requests to the secure port of the API server via http "
                        + "basic authentication (CSV: password,user,uid[,\"group1,group2\"]). Insecure: removed from "
                        + "kube-apiserver in 1.19, kept by Kapi, off by default.",
                true, false, (b, v) -> b.authentication = b.authentication.withBasicAuthFile(Path.of(v))));
        return flags;
    }

    private static Map<String, BiConsumer<Options.Builder, String>> appliers() {
        Map<String, BiConsumer<Options.Builder, String>> m = new LinkedHashMap<>();
        m.put("anonymous-auth", (b, v) -> b.authentication = b.authentication.withAnonymous(bool(v)));
        m.put("enable-bootstrap-token-auth", (b, v) -> b.authentication = b.authentication.withBootstrapTokens(bool(v)));
        m.put("authentication-config", (b, v) -> b.authentication = b.authentication.withAuthenticationConfigFile(Path.of(v)));
        m.put("authentication-token-webhook-config-file", (b, v) -> b.authentication = b.authentication.withWebhook(
                Path.of(v), b.authentication.webhookCacheTtl(), b.authentication.webhookVersion()));
        m.put("authentication-token-webhook-cache-ttl", (b, v) -> b.authentication = b.authentication.withWebhook(
                b.authentication.webhookConfigFile(), GoDuration.parse(v), b.authentication.webhookVersion()));
        m.put("authentication-token-webhook-version", (b, v) -> b.authentication = b.authentication.withWebhook(
                b.authentication.webhookConfigFile(), b.authentication.webhookCacheTtl(), version(v)));
        serviceAccounts(m);
        oidc(m);
        requestHeader(m);
        m.put("authorization-policy-file", (b, v) -> b.authorization = b.authorization.withPolicyFile(Path.of(v)));
        m.put("authorization-config", (b, v) -> b.authorization = b.authorization.withConfigFile(Path.of(v)));
        m.put("authorization-webhook-config-file", (b, v) -> b.authorization = webhook(b.authorization, Path.of(v),
                null, null, null));
        m.put("authorization-webhook-cache-authorized-ttl", (b, v) -> b.authorization = webhook(b.authorization, null,
                v, null, null));
        m.put("authorization-webhook-cache-unauthorized-ttl", (b, v) -> b.authorization = webhook(b.authorization, null,
                null, v, null));
        m.put("authorization-webhook-version", (b, v) -> b.authorization = webhook(b.authorization, null, null, null,
                version(v)));
        return m;
    }

    private static void serviceAccounts(Map<String, BiConsumer<Options.Builder, String>> m) {
        m.put("service-account-key-file", (b, v) -> sa(b, s -> new ServiceAccounts(append(s.keyFiles(), Path.of(v)),
                s.signingKeyFile(), s.issuers(), s.apiAudiences(), s.lookup(), s.maxTokenExpiration())));
        m.put("service-account-signing-key-file", (b, v) -> sa(b, s -> new ServiceAccounts(s.keyFiles(), Path.of(v),
                s.issuers(), s.apiAudiences(), s.lookup(), s.maxTokenExpiration())));
        m.put("api-audiences", (b, v) -> sa(b, s -> new ServiceAccounts(s.keyFiles(), s.signingKeyFile(), s.issuers(),
                appendAll(s.apiAudiences(), v), s.lookup(), s.maxTokenExpiration())));
        m.put("service-account-lookup", (b, v) -> sa(b, s -> new ServiceAccounts(s.keyFiles(), s.signingKeyFile(),
                s.issuers(), s.apiAudiences(), bool(v), s.maxTokenExpiration())));
        m.put("service-account-max-token-expiration", (b, v) -> sa(b, s -> new ServiceAccounts(s.keyFiles(),
                s.signingKeyFile(), s.issuers(), s.apiAudiences(), s.lookup(), GoDuration.parse(v))));
    }

    private static void sa(Options.Builder b, UnaryOperator<ServiceAccounts> change) {
        b.authentication = b.authentication.withServiceAccounts(change.apply(b.authentication.serviceAccounts()));
    }

    private static void oidc(Map<String, BiConsumer<Options.Builder, String>> m) {
        m.put("oidc-issuer-url", (b, v) -> oidc(b, o -> new Oidc(v, o.clientId(), o.usernameClaim(), o.usernamePrefix(),
                o.groupsClaim(), o.groupsPrefix(), o.caFile(), o.requiredClaims(), o.signingAlgs())));
        m.put("oidc-client-id", (b, v) -> oidc(b, o -> new Oidc(o.issuerUrl(), v, o.usernameClaim(), o.usernamePrefix(),
                o.groupsClaim(), o.groupsPrefix(), o.caFile(), o.requiredClaims(), o.signingAlgs())));
        m.put("oidc-username-claim", (b, v) -> oidc(b, o -> new Oidc(o.issuerUrl(), o.clientId(), v, o.usernamePrefix(),
                o.groupsClaim(), o.groupsPrefix(), o.caFile(), o.requiredClaims(), o.signingAlgs())));
        m.put("oidc-username-prefix", (b, v) -> oidc(b, o -> new Oidc(o.issuerUrl(), o.clientId(), o.usernameClaim(), v,
                o.groupsClaim(), o.groupsPrefix(), o.caFile(), o.requiredClaims(), o.signingAlgs())));
        m.put("oidc-groups-claim", (b, v) -> oidc(b, o -> new Oidc(o.issuerUrl(), o.clientId(), o.usernameClaim(),
                o.usernamePrefix(), v, o.groupsPrefix(), o.caFile(), o.requiredClaims(), o.signingAlgs())));
        m.put("oidc-groups-prefix", (b, v) -> oidc(b, o -> new Oidc(o.issuerUrl(), o.clientId(), o.usernameClaim(),
                o.usernamePrefix(), o.groupsClaim(), v, o.caFile(), o.requiredClaims(), o.signingAlgs())));
        m.put("oidc-ca-file", (b, v) -> oidc(b, o -> new Oidc(o.issuerUrl(), o.clientId(), o.usernameClaim(),
                o.usernamePrefix(), o.groupsClaim(), o.groupsPrefix(), Path.of(v), o.requiredClaims(), o.signingAlgs())));
        m.put("oidc-required-claim", (b, v) -> oidc(b, o -> new Oidc(o.issuerUrl(), o.clientId(), o.usernameClaim(),
                o.usernamePrefix(), o.groupsClaim(), o.groupsPrefix(), o.caFile(), pairs(o.requiredClaims(), v),
                o.signingAlgs())));
        m.put("oidc-signing-algs", (b, v) -> oidc(b, o -> new Oidc(o.issuerUrl(), o.clientId(), o.usernameClaim(),
                o.usernamePrefix(), o.groupsClaim(), o.groupsPrefix(), o.caFile(), o.requiredClaims(),
                appendAll(o.signingAlgs(), v))));
    }

    private static void oidc(Options.Builder b, UnaryOperator<Oidc> change) {
        Oidc current = b.authentication.oidc() == null
                ? new Oidc(null, null, "sub", null, null, null, null, Map.of(), List.of()) : b.authentication.oidc();
        b.authentication = b.authentication.withOidc(change.apply(current));
    }

    private static void requestHeader(Map<String, BiConsumer<Options.Builder, String>> m) {
        m.put("requestheader-client-ca-file", (b, v) -> rh(b, r -> new RequestHeader(Path.of(v), r.allowedNames(),
                r.usernameHeaders(), r.uidHeaders(), r.groupHeaders(), r.extraHeaderPrefixes())));
        m.put("requestheader-allowed-names", (b, v) -> rh(b, r -> new RequestHeader(r.clientCaFile(),
                appendAll(r.allowedNames(), v), r.usernameHeaders(), r.uidHeaders(), r.groupHeaders(),
                r.extraHeaderPrefixes())));
        m.put("requestheader-username-headers", (b, v) -> rh(b, r -> new RequestHeader(r.clientCaFile(),
                r.allowedNames(), appendAll(r.usernameHeaders(), v), r.uidHeaders(), r.groupHeaders(),
                r.extraHeaderPrefixes())));
        m.put("requestheader-uid-headers", (b, v) -> rh(b, r -> new RequestHeader(r.clientCaFile(), r.allowedNames(),
                r.usernameHeaders(), appendAll(r.uidHeaders(), v), r.groupHeaders(), r.extraHeaderPrefixes())));
        m.put("requestheader-group-headers", (b, v) -> rh(b, r -> new RequestHeader(r.clientCaFile(), r.allowedNames(),
                r.usernameHeaders(), r.uidHeaders(), appendAll(r.groupHeaders(), v), r.extraHeaderPrefixes())));
        m.put("requestheader-extra-headers-prefix", (b, v) -> rh(b, r -> new RequestHeader(r.clientCaFile(),
                r.allowedNames(), r.usernameHeaders(), r.uidHeaders(), r.groupHeaders(),
                appendAll(r.extraHeaderPrefixes(), v))));
    }

    private static void rh(Options.Builder b, UnaryOperator<RequestHeader> change) {
        RequestHeader current = b.authentication.requestHeader() == null
                ? new RequestHeader(null, List.of(), List.of(), List.of(), List.of(), List.of())
                : b.authentication.requestHeader();
        b.authentication = b.authentication.withRequestHeader(change.apply(current));
    }

    private static AuthorizationConfig webhook(AuthorizationConfig c, Path file, String authorizedTtl,
                                               String unauthorizedTtl, String version) {
        return c.withWebhook(file != null ? file : c.webhookConfigFile(),
                authorizedTtl != null ? GoDuration.parse(authorizedTtl) : c.webhookAuthorizedTtl(),
                unauthorizedTtl != null ? GoDuration.parse(unauthorizedTtl) : c.webhookUnauthorizedTtl(),
                version != null ? version : c.webhookVersion());
    }

    private static String version(String v) {
        if (!v.equals("v1") && !v.equals("v1beta1")) {
            throw new IllegalArgumentException("unsupported version \"" + v + "\", supported: v1, v1beta1");
        }
        return v;
    }

    private static boolean bool(String v) {
        return GoBool.parse(v).orElseThrow();
    }

    private static <T> List<T> append(List<T> list, T value) {
        List<T> out = new ArrayList<>(list);
        out.add(value);
        return out;
    }

    private static List<String> appendAll(List<String> list, String commaSeparated) {
        List<String> out = new ArrayList<>(list);
        Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
        return out;
    }

    /** {@code key=value,key2=value2} added to {@code current}. */
    private static Map<String, String> pairs(Map<String, String> current, String text) {
        Map<String, String> out = new LinkedHashMap<>(current);
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("%s must be formatted as key=value".formatted(pair));
            }
            out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return out;
    }
}
