package io.kapi.aggregator;

import java.nio.file.Path;

/**
 * The aggregator's flags.
 *
 * @param proxyClientCertFile {@code --proxy-client-cert-file}: the client certificate presented to aggregated
 *                            API servers (null: none)
 * @param proxyClientKeyFile  {@code --proxy-client-key-file}: its key
 * @param endpointRouting     {@code --enable-aggregator-routing}: proxy to a ready endpoint of the Service
 *                            rather than to its cluster IP
 */
public record AggregatorConfig(Path proxyClientCertFile, Path proxyClientKeyFile, boolean endpointRouting) {

    /** kube-apiserver's defaults: no proxy client certificate, cluster-IP routing. */
    public static final AggregatorConfig DEFAULT = new AggregatorConfig(null, null, false);

    public AggregatorConfig withProxyClientCertFile(Path file) {
        return new AggregatorConfig(file, proxyClientKeyFile, endpointRouting);
    }

    public AggregatorConfig withProxyClientKeyFile(Path file) {
        return new AggregatorConfig(proxyClientCertFile, file, endpointRouting);
    }

    public AggregatorConfig withEndpointRouting(boolean on) {
        return new AggregatorConfig(proxyClientCertFile, proxyClientKeyFile, on);
    }
}
