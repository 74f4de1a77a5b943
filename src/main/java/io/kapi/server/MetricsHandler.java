package io.kapi.server;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.metrics.Metrics;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Supplier;

/**
 * Serves {@code /metrics} (the server's families) and {@code /metrics/slis} (the health checks' SLIs) in
 * Prometheus' text format 0.0.4, or OpenMetrics 1.0 when the {@code Accept} header asks for
 * {@code application/openmetrics-text}. Prometheus asks for OpenMetrics first, and kube-apiserver (which
 * never answers OpenMetrics) gives it the text format: in both formats the bucket bounds are written as Go
 * writes them ({@link GoBucketBounds}, {@code le="1"}, not the Java client's {@code le="1.0"}), so the series
 * a Prometheus stores from Kapi carry the label values the kubernetes-mixin's rules select, whichever format
 * it negotiated. Who may read
 * them is the authorization filter's decision ({@code get} on the non-resource URL: kube's bootstrap
 * {@code system:monitoring} role).
 */
final class MetricsHandler implements RestHandler {

    private static final ExpositionFormats FORMATS = ExpositionFormats.init();

    private final Metrics metrics;

    MetricsHandler(Metrics metrics) {
        this.metrics = metrics;
    }

    /** Serves /metrics only, never a resource request. */
    @Override
    public boolean servesResources() {
        return false;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        Supplier<MetricSnapshots> scrape = switch (request.path()) {
            case "/metrics" -> metrics::scrape;
            case "/metrics/slis" -> metrics::scrapeSlis;
            default -> null;
        };
        if (scrape == null) {
            return null;
        }
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            throw ApiException.methodNotAllowed();
        }
        ExpositionFormatWriter writer = FORMATS.findWriter(request.header("Accept"));
        if (!writer.isAvailable()) {
            writer = FORMATS.getPrometheusTextFormatWriter();
        }
        MetricSnapshots snapshots = scrape.get();
        ExpositionFormatWriter chosen = writer;
        return new RestResponse(200, new java.util.ArrayList<>(),
                new RestResponse.Encoded(chosen.getContentType(), out -> {
                    GoBucketBounds bounds = new GoBucketBounds(out);
                    chosen.write(bounds, snapshots);
                    bounds.finish();
                }));
    }
}
