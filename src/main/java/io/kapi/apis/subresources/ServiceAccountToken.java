package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.request.Verb;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code POST .../serviceaccounts/{name}/token} ({@code authentication.k8s.io/v1 TokenRequest}), as
 * kube-apiserver's {@code TokenREST}: a JWT signed with the {@link ServiceAccountKeys}, with the
 * claims {@code iss}, {@code sub} ({@code system:serviceaccount:ns:name}), {@code aud}, {@code exp},
 * {@code iat}, {@code nbf}, {@code jti} and {@code kubernetes.io} (namespace, service account, and
 * the bound pod, secret or node). Answers 201 with {@code status.token} and
 * {@code status.expirationTimestamp}; 404 when the service account does not exist, 422 for an
 * expiration under 10 minutes.
 *
 * @param issuer the {@code iss} claim, also the audience when the request names none
 */
public record ServiceAccountToken(Codecs codecs, Registry registry, ServiceAccountKeys keys, String issuer,
                                  java.time.Duration maxExpiration, Clock clock) implements VerbHandler {

    public static final String DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";
    static final GroupVersionKind TOKEN_REQUEST = new GroupVersionKind("authentication.k8s.io", "v1", "TokenRequest");
    private static final long MIN_SECONDS = 600;
    private static final long MAX_SECONDS = 1L << 32;
    private static final long DEFAULT_SECONDS = 3600;

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (r.info().verb() != Verb.CREATE) {
            throw ApiException.methodNotAllowed();
        }
        r.dryRun();
        ObjectNode request = codecs.decoder().decode(r.http(), TOKEN_REQUEST).object();
        ObjectNode answer = issue(r.info().namespace(), r.info().name(), request);
        return codecs.writer().object(r.http(), Replies.asKind(r.resource(), TOKEN_REQUEST.group(),
                TOKEN_REQUEST.version(), TOKEN_REQUEST.kind()), 201, answer);
    }

    /** Fills {@code request} in: defaults, metadata and status with the signed token. */
    ObjectNode issue(String namespace, String name, ObjectNode request) {
        ObjectMeta meta = ObjectMeta.of(request);
        if (!meta.name().isEmpty() && !meta.name().equals(name)) {
            throw invalid(name, FieldError.invalid("metadata.name", GoStrings.quote(meta.name()),
                    "must match the service account name if specified"));
        }
        if (!meta.namespace().isEmpty() && !meta.namespace().equals(namespace)) {
            throw invalid(name, FieldError.invalid("metadata.namespace", GoStrings.quote(meta.namespace()),
                    "must match the service account namespace if specified"));
        }
        ObjectNode account = store("", "v1", "serviceaccounts").get(namespace, name);
        if (!(request.get("spec") instanceof ObjectNode)) {
            request.set("spec", Json.object()); // "spec": null decodes as Go decodes it: the zero TokenRequestSpec
        }
        ObjectNode spec = (ObjectNode) request.get("spec");
        if (spec.path("audiences").isEmpty()) {
            spec.putArray("audiences").add(issuer);
        }
        if (!spec.path("expirationSeconds").canConvertToLong() || spec.path("expirationSeconds").asLong() == 0) {
            spec.put("expirationSeconds", DEFAULT_SECONDS);
        }
        if (maxExpiration != null && spec.path("expirationSeconds").asLong() > maxExpiration.toSeconds()) {
            spec.put("expirationSeconds", maxExpiration.toSeconds()); // kube shortens, it does not refuse
        }
        long seconds = spec.path("expirationSeconds").asLong();
        Instant now = clock.instant();
        request.put("apiVersion", TOKEN_REQUEST.apiVersion());
        request.put("kind", TOKEN_REQUEST.kind());
        meta.name(name);
        meta.namespace(namespace);
        meta.node().put("creationTimestamp", ObjectMeta.format(now));
        request.remove("status");
        if (seconds < MIN_SECONDS) {
            throw invalid("", FieldError.invalid("spec.expirationSeconds", Long.toString(seconds),
                    "may not specify a duration less than 10 minutes"));
        }
        if (seconds > MAX_SECONDS) {
            throw invalid("", FieldError.invalid("spec.expirationSeconds", Long.toString(seconds),
                    "may not specify a duration larger than 2^32 seconds"));
        }
        Map<String, Object> kubernetes = new LinkedHashMap<>();
        kubernetes.put("namespace", namespace);
        kubernetes.put("serviceaccount", ref(account));
        bindTo(namespace, name, spec.path("boundObjectRef"), kubernetes);
        Instant expiry = now.plusSeconds(seconds);
        ObjectNode claims = Json.object();
        claims.put("iss", issuer);
        claims.put("sub", "system:serviceaccount:" + namespace + ":" + name);
        claims.set("aud", spec.path("audiences").deepCopy());
        claims.put("exp", expiry.getEpochSecond());
        claims.put("iat", now.getEpochSecond());
        claims.put("nbf", now.getEpochSecond());
        claims.put("jti", UUID.randomUUID().toString());
        claims.set("kubernetes.io", Json.MAPPER.valueToTree(kubernetes));
        ObjectNode status = request.putObject("status");
        status.put("token", sign(claims));
        status.put("expirationTimestamp", ObjectMeta.format(expiry));
        return request;
    }

    /** The {@code kubernetes.io} entries of the object the token is bound to, checked to exist. */
    private void bindTo(String namespace, String account, JsonNode ref, Map<String, Object> kubernetes) {
        if (ref.isMissingNode() || ref.isNull()) {
            return;
        }
        String kind = ref.path("kind").asText("");
        String apiVersion = ref.path("apiVersion").asText("");
        String name = ref.path("name").asText("");
        String uid = ref.path("uid").asText("");
        ObjectNode bound = switch (apiVersion + "/" + kind) {
            case "v1/Pod" -> store("", "v1", "pods").get(namespace, name);
            case "v1/Secret" -> store("", "v1", "secrets").get(namespace, name);
            case "v1/Node" -> store("", "v1", "nodes").get("", name);
            default -> throw ApiException.badRequest("cannot bind token to object of type %s, Kind=%s"
                    .formatted(apiVersion.contains("/") ? apiVersion : "/" + apiVersion, kind));
        };
        if (kind.equals("Pod") && !account.equals(bound.path("spec").path("serviceAccountName").asText("default"))) {
            throw ApiException.badRequest(("cannot bind token for serviceaccount %s to pod running with different "
                    + "serviceaccount name.").formatted(GoStrings.quote(account)));
        }
        if (!uid.isEmpty() && !uid.equals(ObjectMeta.of(bound).uid())) {
            throw ApiException.conflict(new GroupVersionResource("", "v1", kind), name,
                    "the UID in the bound object reference (%s) does not match the UID in record. The object might "
                            .formatted(uid) + "have been deleted and then recreated");
        }
        kubernetes.put(kind.toLowerCase(java.util.Locale.ROOT), ref(bound));
        String nodeName = bound.path("spec").path("nodeName").asText("");
        if (kind.equals("Pod") && !nodeName.isEmpty()) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("name", nodeName);
            try {
                node.put("uid", ObjectMeta.of(store("", "v1", "nodes").get("", nodeName)).uid());
            } catch (ApiException e) {
                if (e.code() != 404) {
                    throw e;
                }
            }
            kubernetes.put("node", node);
        }
    }

    private static Map<String, Object> ref(ObjectNode object) {
        Map<String, Object> ref = new LinkedHashMap<>();
        ref.put("name", ObjectMeta.of(object).name());
        ref.put("uid", ObjectMeta.of(object).uid());
        return ref;
    }

    /** Signs the claims as they are: {@code aud} stays an array even with one audience, as kube-apiserver writes it. */
    private String sign(ObjectNode claims) {
        try {
            return keys.sign(claims);
        } catch (IllegalStateException e) {
            throw ApiException.internal("failed to sign the service account token");
        }
    }

    private ResourceStore store(String group, String version, String plural) {
        return registry.resource(group, version, plural).flatMap(registry::store)
                .orElseThrow(() -> ApiException.internal("no store for " + plural));
    }

    private static ApiException invalid(String name, FieldError error) {
        return ApiException.invalid(TOKEN_REQUEST, name, List.of(error));
    }
}
