package io.kapi.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiServiceConditions;
import io.kapi.machinery.GroupVersion;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * An APIService that names a Service (kube's {@code proxyHandlingInfo}): its group-version's requests are
 * proxied there. APIServices without a Service are served by this server and have no route.
 *
 * @param name the APIService's name, {@code <version>.<group>}
 * @param caBundle PEM certificates the backend's serving certificate must lead to (empty: system roots), as
 *                 text so that two routes compare by value
 * @param insecure {@code insecureSkipTLSVerify}: the backend's certificate is not checked
 * @param available whether its {@code Available} condition is {@code True}: kube proxies only then
 */
public record ApiServiceRoute(String name, GroupVersion groupVersion, int groupPriority, int versionPriority,
                              ServiceRef service, String caBundle, boolean insecure, boolean available) {

    /** The Service of an APIService: where, and on which of its ports (kube's default 443). */
    public record ServiceRef(String namespace, String name, int port) {

        /** The name the backend's certificate must carry: {@code <name>.<namespace>.svc}. */
        public String serverName() {
            return name + "." + namespace + ".svc";
        }
    }

    /** The route of an APIService object, or empty for a local one (no {@code spec.service}). */
    public static Optional<ApiServiceRoute> of(ObjectNode apiService) {
        JsonNode spec = apiService.path("spec");
        if (ApiServiceConditions.isLocal(apiService)) {
            return Optional.empty();
        }
        JsonNode service = spec.path("service");
        ServiceRef ref = new ServiceRef(service.path("namespace").asText(""), service.path("name").asText(""),
                service.path("port").asInt(443));
        return Optional.of(new ApiServiceRoute(apiService.path("metadata").path("name").asText(""),
                new GroupVersion(spec.path("group").asText(""), spec.path("version").asText("")),
                spec.path("groupPriorityMinimum").asInt(0), spec.path("versionPriority").asInt(0), ref,
                decode(spec.path("caBundle").asText("")), spec.path("insecureSkipTLSVerify").asBoolean(false),
                ApiServiceConditions.isAvailable(apiService)));
    }

    private static String decode(String base64) {
        try {
            return new String(Base64.getDecoder().decode(base64), StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
