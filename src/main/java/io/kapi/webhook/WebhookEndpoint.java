package io.kapi.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Base64;

/**
 * Where a webhook listens, as a {@code clientConfig} (admission's WebhookClientConfig, a CRD's conversion
 * webhook) names it: a URL, or a Service (namespace, name, path, port, kube's defaults {@code /} and 443),
 * with the PEM {@code caBundle} to trust (empty: the system roots).
 */
public record WebhookEndpoint(String url, String serviceNamespace, String serviceName, String path, int port,
                              byte[] caBundle) {

    /** The endpoint a {@code clientConfig} object names; a caBundle that is not base64 reads as none. */
    public static WebhookEndpoint of(JsonNode clientConfig) {
        byte[] ca = clientConfig.hasNonNull("caBundle") ? decode(clientConfig.get("caBundle").asText()) : new byte[0];
        if (clientConfig.hasNonNull("url")) {
            return new WebhookEndpoint(clientConfig.get("url").asText(), null, null, null, 0, ca);
        }
        JsonNode s = clientConfig.path("service");
        return new WebhookEndpoint(null, s.path("namespace").asText(), s.path("name").asText(),
                s.path("path").asText("/"), s.path("port").asInt(443), ca);
    }

    /** The URL, or {@code https://<name>.<namespace>.svc:<port><path>} for a Service. */
    public String describe() {
        return url != null ? url : "https://" + serviceName + "." + serviceNamespace + ".svc:" + port + path;
    }

    private static byte[] decode(String base64) {
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }
}
