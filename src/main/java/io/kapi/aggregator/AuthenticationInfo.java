package io.kapi.aggregator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.authn.AuthenticationConfig;
import io.kapi.certs.Pem;
import io.kapi.client.ResourceClient;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's cluster-authentication-trust controller, run once at start: ConfigMap
 * {@code kube-system/extension-apiserver-authentication} tells aggregated API servers how to authenticate
 * the requests this server sends them ({@code client-ca-file}, and with {@code --requestheader-client-ca-file}
 * the {@code requestheader-*} keys: the CA, allowed names and header names as JSON arrays). What another
 * server of the cluster wrote there is kept: lists are merged, CA bundles joined without duplicates and
 * without certificates expired more than five minutes ago.
 */
public final class AuthenticationInfo implements PostStartHook {

    private static final String NAMESPACE = "kube-system";
    private static final String NAME = "extension-apiserver-authentication";
    private static final List<String> LISTS = List.of("requestheader-username-headers", "requestheader-uid-headers",
            "requestheader-group-headers", "requestheader-extra-headers-prefix");

    private final ResourceClient configMaps;
    private final List<X509Certificate> clientCas;
    private final AuthenticationConfig.RequestHeader requestHeader;

    /** @param configMaps core/v1 configmaps, written as kube-apiserver itself */
    public AuthenticationInfo(ResourceClient configMaps, AuthenticationConfig authentication) {
        this.configMaps = configMaps;
        this.clientCas = authentication.clientCas();
        this.requestHeader = authentication.requestHeader();
    }

    @Override
    public String name() {
        return "start-cluster-authentication-info-controller";
    }

    @Override
    public void run() {
        ObjectNode existing = configMaps.find(NAMESPACE, NAME).orElse(null);
        Map<String, String> old = new LinkedHashMap<>();
        if (existing != null) {
            existing.path("data").properties().forEach(e -> old.put(e.getKey(), e.getValue().asText()));
        }
        Map<String, String> data = data(old);
        if (data.equals(old) && existing != null) {
            return;
        }
        ObjectNode cm = existing != null ? existing.deepCopy() : Json.object();
        if (existing == null) {
            cm.put("apiVersion", "v1").put("kind", "ConfigMap");
            cm.putObject("metadata").put("name", NAME).put("namespace", NAMESPACE);
        }
        ObjectNode out = cm.putObject("data");
        data.forEach(out::put);
        if (existing == null) {
            try {
                configMaps.create(NAMESPACE, cm);
                return;
            } catch (ApiException e) {
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    throw e;
                }
                throw new IllegalStateException(NAME + " was created meanwhile; merging again");
            }
        }
        configMaps.update(cm);
    }

    /** The ConfigMap's data: {@code old} merged with this server's. */
    Map<String, String> data(Map<String, String> old) {
        Map<String, String> data = new LinkedHashMap<>();
        String clientCa = bundle(old.get("client-ca-file"), clientCas);
        if (!clientCa.isEmpty()) {
            data.put("client-ca-file", clientCa);
        }
        String requestHeaderCa = bundle(old.get("requestheader-client-ca-file"), requestHeaderCas());
        if (requestHeaderCa.isEmpty()) {
            return data;
        }
        List<List<String>> mine = requestHeader == null ? List.of(List.of(), List.of(), List.of(), List.of())
                : List.of(requestHeader.usernameHeaders(), requestHeader.uidHeaders(), requestHeader.groupHeaders(),
                        requestHeader.extraHeaderPrefixes());
        for (int i = 0; i < LISTS.size(); i++) {
            data.put(LISTS.get(i), merged(old.get(LISTS.get(i)), mine.get(i)));
        }
        data.put("requestheader-client-ca-file", requestHeaderCa);
        data.put("requestheader-allowed-names", merged(old.get("requestheader-allowed-names"),
                requestHeader == null ? List.of() : requestHeader.allowedNames()));
        return data;
    }

    private List<X509Certificate> requestHeaderCas() {
        if (requestHeader == null || requestHeader.clientCaFile() == null) {
            return List.of();
        }
        try {
            return Pem.certificates(Files.readString(requestHeader.clientCaFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + requestHeader.clientCaFile(), e);
        }
    }

    /** The certificates of {@code old} (PEM) then {@code mine}, each once, none expired five minutes ago. */
    private static String bundle(String old, List<X509Certificate> mine) {
        List<X509Certificate> all = new ArrayList<>();
        if (old != null && !old.isBlank()) {
            all.addAll(Pem.certificates(old));
        }
        all.addAll(mine);
        Instant horizon = Instant.now().minusSeconds(300);
        StringBuilder out = new StringBuilder();
        List<byte[]> seen = new ArrayList<>();
        for (X509Certificate c : all) {
            byte[] der = encoded(c);
            if (c.getNotAfter().toInstant().isAfter(horizon) && seen.stream().noneMatch(d -> Arrays.equals(d, der))) {
                seen.add(der);
                out.append(Pem.encode(c));
            }
        }
        return out.toString();
    }

    private static byte[] encoded(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The JSON array of {@code old}'s strings then {@code mine}'s, each once. */
    private static String merged(String old, List<String> mine) {
        Set<String> values = new LinkedHashSet<>();
        if (old != null && !old.isEmpty()) {
            try {
                Json.MAPPER.readTree(old).forEach(v -> values.add(v.asText()));
            } catch (JsonProcessingException e) {
                // an unreadable list is replaced by this server's, as kube would fail and retry forever otherwise
            }
        }
        values.addAll(mine);
        try {
            return Json.MAPPER.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
