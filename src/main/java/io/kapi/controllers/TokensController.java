package io.kapi.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.apis.subresources.ServiceAccountKeys;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * kube-controller-manager's service-account tokens controller, for standalone mode: every Secret of type
 * {@value #TYPE} whose {@code kubernetes.io/service-account.name} (and, if set,
 * {@code kubernetes.io/service-account.uid}) names an existing ServiceAccount gets {@code data.token} (a
 * legacy JWT, {@code iss: kubernetes/serviceaccount}, signed with the service-account key, no expiry),
 * {@code data["ca.crt"]} (the cluster CA) and {@code data.namespace}, and the account's uid annotation;
 * a Secret whose account is gone (or was re-created with another uid) is deleted, as kube does when the
 * account is deleted. Polls every {@code interval} on one virtual thread started by its post-start hook;
 * stops on {@link #close()}. Reads through the lookup (kube: informers), writes as
 * {@code system:kube-controller-manager} (kube's tokens controller uses the root credentials).
 */
public final class TokensController extends PassHook {

    /** The Secret type this controller fills. */
    public static final String TYPE = "kubernetes.io/service-account-token";
    static final String NAME_ANNOTATION = "kubernetes.io/service-account.name";
    static final String UID_ANNOTATION = "kubernetes.io/service-account.uid";
    static final String LEGACY_ISSUER = "kubernetes/serviceaccount";
    private static final System.Logger LOG = System.getLogger(TokensController.class.getName());
    private static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1", "secrets");
    private static final GroupVersionResource SERVICE_ACCOUNTS = new GroupVersionResource("", "v1", "serviceaccounts");

    private final ResourceClient secrets;
    private final ObjectLookup lookup;
    private final ServiceAccountKeys keys;
    private final String caBundle;

    /**
     * @param client writes as the controller's identity
     * @param caBundle the PEM put in {@code ca.crt}, or null when the cluster CA is not known
     */
    public TokensController(LocalClient client, ObjectLookup lookup, ServiceAccountKeys keys, String caBundle,
                            SharedInformers informers) {
        super(informers, List.of(SECRETS, SERVICE_ACCOUNTS), null);
        this.secrets = client.resource(SECRETS);
        this.lookup = lookup;
        this.keys = keys;
        this.caBundle = caBundle;
    }

    @Override
    public String name() {
        return "start-kapi-serviceaccount-tokens-controller";
    }

    /** One pass over every service-account token Secret. */
    @Override
    public void syncAll() {
        for (ObjectNode secret : lookup.list(SECRETS, "")) {
            if (TYPE.equals(secret.path("type").asText()) && ObjectMeta.of(secret).deletionTimestamp().isEmpty()) {
                try {
                    sync(secret);
                } catch (ApiException e) {
                    if (e.reason() != StatusReason.CONFLICT && e.reason() != StatusReason.NOT_FOUND) {
                        throw e;
                    } // changed or gone meanwhile: the next pass sees the new state
                }
            }
        }
    }

    private void sync(ObjectNode secret) {
        ObjectMeta meta = ObjectMeta.of(secret);
        String accountName = meta.node().path("annotations").path(NAME_ANNOTATION).asText("");
        String accountUid = meta.node().path("annotations").path(UID_ANNOTATION).asText("");
        if (accountName.isEmpty()) {
            return; // validation requires it; nothing to bind the token to
        }
        Optional<ObjectNode> account = lookup.get(SERVICE_ACCOUNTS, meta.namespace(), accountName)
                .filter(a -> ObjectMeta.of(a).deletionTimestamp().isEmpty())
                .filter(a -> accountUid.isEmpty() || accountUid.equals(ObjectMeta.of(a).uid()));
        if (account.isEmpty()) {
            LOG.log(System.Logger.Level.DEBUG, "service account {0}/{1} does not exist, deleting token secret {2}",
                    meta.namespace(), accountName, meta.name());
            secrets.delete(meta.namespace(), meta.name(),
                    new DeleteOptions(meta.uid(), null, false, null, null));
            return;
        }
        ObjectNode filled = filled(secret, account.get());
        if (filled != null) {
            secrets.update(filled);
        }
    }

    /** The Secret with what it lacks, or null when it lacks nothing (kube's {@code generateTokenIfNeeded}). */
    private ObjectNode filled(ObjectNode secret, ObjectNode account) {
        ObjectNode data = secret.path("data") instanceof ObjectNode d ? d : Json.object();
        boolean needsCa = caBundle != null && !caBundle.equals(decoded(data, "ca.crt"));
        boolean needsNamespace = decoded(data, "namespace").isEmpty();
        boolean needsToken = decoded(data, "token").isEmpty();
        String uid = ObjectMeta.of(account).uid();
        boolean needsUid = !uid.equals(secret.path("metadata").path("annotations").path(UID_ANNOTATION).asText());
        if (!needsCa && !needsNamespace && !needsToken && !needsUid) {
            return null;
        }
        ObjectNode copy = secret.deepCopy();
        ObjectNode out = copy.with("data");
        String namespace = ObjectMeta.of(secret).namespace();
        if (needsCa) {
            out.put("ca.crt", encoded(caBundle));
        }
        if (needsNamespace) {
            out.put("namespace", encoded(namespace));
        }
        if (needsToken) {
            out.put("token", encoded(keys.sign(claims(account, ObjectMeta.of(secret).name()))));
        }
        copy.with("metadata").with("annotations").put(UID_ANNOTATION, uid);
        return copy;
    }

    /** kube's {@code LegacyClaims}: subject and the private claims naming the account and the Secret. */
    static ObjectNode claims(ObjectNode account, String secretName) {
        ObjectMeta meta = ObjectMeta.of(account);
        ObjectNode claims = Json.object();
        claims.put("iss", LEGACY_ISSUER);
        claims.put("kubernetes.io/serviceaccount/namespace", meta.namespace());
        claims.put("kubernetes.io/serviceaccount/secret.name", secretName);
        claims.put("kubernetes.io/serviceaccount/service-account.name", meta.name());
        claims.put("kubernetes.io/serviceaccount/service-account.uid", meta.uid());
        claims.put("sub", "system:serviceaccount:" + meta.namespace() + ":" + meta.name());
        return claims;
    }

    private static String decoded(ObjectNode data, String key) {
        try {
            return new String(Base64.getDecoder().decode(data.path(key).asText("")), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    private static String encoded(String value) {
        return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    }
}
