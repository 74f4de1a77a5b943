package io.kapi.endpoint.openapi;

import io.kapi.machinery.ApiException;
import java.util.Locale;

/**
 * Content negotiation for the OpenAPI endpoints, as kube-openapi's: JSON always; for v2 also gnostic
 * protobuf, which kubectl and client-go ask for. The acceptable media range with the highest {@code q}
 * wins, the first listed among equals. The documents are sent gzipped to a client that accepts gzip.
 */
final class OpenApiAccept {

    static final String JSON = "application/json";
    static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
    private static final String PROTOBUF_DEPRECATED = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

    private OpenApiAccept() {
    }

    /**
     * {@link #JSON} or {@link #PROTOBUF}.
     *
     * @param protobuf whether protobuf may be answered (v2 only)
     * @throws ApiException 406 if the Accept header lists nothing acceptable
     */
    static String negotiate(String accept, boolean protobuf) {
        if (accept == null || accept.isBlank()) {
            return JSON;
        }
        String best = null;
        double bestQ = 0;
        for (String range : accept.split(",")) {
            String[] parts = range.split(";", -1);
            String type = parts[0].strip().toLowerCase(Locale.ROOT);
            double q = quality(parts);
            String offered = switch (type) {
                case JSON, "application/*", "*/*" -> JSON;
                case PROTOBUF, PROTOBUF_DEPRECATED -> protobuf ? PROTOBUF : null;
                default -> null;
            };
            if (offered != null && q > bestQ) {
                best = offered;
                bestQ = q;
            }
        }
        if (best == null) {
            throw ApiException.notAcceptable(protobuf ? JSON + ", " + PROTOBUF : JSON);
        }
        return best;
    }

    /**
     * Whether an Accept-Encoding header accepts gzip: a {@code gzip} (or {@code *}) coding whose
     * quality is above 0.
     */
    static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String coding : acceptEncoding.split(",")) {
            String[] parts = coding.split(";", -1);
            String name = parts[0].strip();
            if ((name.equalsIgnoreCase("gzip") || name.equals("*")) && quality(parts) > 0) {
                return true;
            }
        }
        return false;
    }

    private static double quality(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String param = parts[i].strip();
            if (param.startsWith("q=")) {
                try {
                    return Double.parseDouble(param.substring(2));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
