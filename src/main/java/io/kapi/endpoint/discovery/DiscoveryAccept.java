package io.kapi.endpoint.discovery;

import io.kapi.machinery.ApiException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Content negotiation for discovery. client-go asks for aggregated discovery with
 * {@code application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList} (then v2beta1, then
 * plain JSON or protobuf as fallbacks); the first acceptable entry by descending {@code q} wins. Each
 * document is served in JSON or in protobuf ({@code application/vnd.kubernetes.protobuf}, with the same
 * {@code g;v;as} parameters for the aggregated forms); a request that accepts none of them gets 406.
 */
final class DiscoveryAccept {

    /** The aggregated forms kube-apiserver serves; clients check the response Content-Type. */
    enum Aggregated {
        V2("v2"), V2BETA1("v2beta1");

        private final String version;

        Aggregated(String version) {
            this.version = version;
        }

        String apiVersion() {
            return "apidiscovery.k8s.io/" + version;
        }

        String contentType() {
            return "application/json;g=apidiscovery.k8s.io;v=" + version + ";as=APIGroupDiscoveryList";
        }

        String protobufContentType() {
            return "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=" + version + ";as=APIGroupDiscoveryList";
        }
    }

    /**
     * What to answer with.
     *
     * @param aggregated the aggregated form, or null for the plain document
     * @param protobuf whether in protobuf rather than JSON
     */
    record Choice(Aggregated aggregated, boolean protobuf) {
        static final Choice JSON = new Choice(null, false);
    }

    private record MediaRange(String type, String g, String v, String as, double q) {
    }

    private DiscoveryAccept() {
    }

    /**
     * The form to answer with.
     *
     * @param allowAggregated whether this path serves aggregated discovery ({@code /api}, {@code /apis})
     * @throws ApiException 406 if nothing acceptable is offered
     */
    static Choice negotiate(String accept, boolean allowAggregated) {
        if (accept == null || accept.isBlank()) {
            return Choice.JSON;
        }
        List<MediaRange> ranges = parse(accept);
        ranges.sort(Comparator.comparingDouble(MediaRange::q).reversed());
        for (MediaRange r : ranges) {
            if (r.q() <= 0) {
                continue;
            }
            boolean protobuf = r.type().equals(DiscoveryHandler.PROTOBUF);
            if (r.as() != null) {
                if (allowAggregated && (protobuf || r.type().equals("application/json"))
                        && "apidiscovery.k8s.io".equals(r.g()) && "APIGroupDiscoveryList".equals(r.as())) {
                    if ("v2".equals(r.v())) {
                        return new Choice(Aggregated.V2, protobuf);
                    }
                    if ("v2beta1".equals(r.v()) && !protobuf) { // no v2beta1 message in client-java-proto
                        return new Choice(Aggregated.V2BETA1, false);
                    }
                }
                continue;
            }
            if (r.type().equals("application/json") || r.type().equals("application/*") || r.type().equals("*/*")) {
                return Choice.JSON;
            }
            if (protobuf) {
                return new Choice(null, true);
            }
        }
        throw ApiException.notAcceptable("application/json, application/yaml, application/vnd.kubernetes.protobuf");
    }

    private static List<MediaRange> parse(String accept) {
        List<MediaRange> out = new ArrayList<>();
        for (String entry : accept.split(",")) {
            String[] parts = entry.split(";", -1);
            String type = parts[0].strip().toLowerCase(Locale.ROOT);
            String g = null;
            String v = null;
            String as = null;
            double q = 1;
            for (int i = 1; i < parts.length; i++) {
                String[] kv = parts[i].split("=", 2);
                if (kv.length != 2) {
                    continue;
                }
                String value = kv[1].strip();
                switch (kv[0].strip()) {
                    case "g" -> g = value;
                    case "v" -> v = value;
                    case "as" -> as = value;
                    case "q" -> q = parseQ(value);
                    default -> { }
                }
            }
            out.add(new MediaRange(type, g, v, as, q));
        }
        return out;
    }

    private static double parseQ(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
