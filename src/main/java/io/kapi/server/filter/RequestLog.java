package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.logs.KeyValues;
import io.kapi.logs.KlogLevel;
import io.kapi.machinery.GoDuration;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * Logs each request at {@code -v=3} after it is answered, in kube-apiserver's httplog form:
 * {@code "HTTP" verb="GET" URI="/api" latency="1.2ms" userAgent="kubectl/v1.34.0" audit-ID="..." srcIP="..." resp=200}.
 * Streamed bodies are logged when their response starts, not when they end. Outermost but for the
 * request context (whose audit ID it logs), so it also sees what panic recovery answered. The URI is
 * logged as sent; credentials never travel in it (headers are not logged).
 */
public final class RequestLog implements Filter {

    private static final Logger LOG = Logger.getLogger(RequestLog.class.getName());

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        if (!LOG.isLoggable(KlogLevel.V3)) {
            return chain.proceed(request);
        }
        long start = System.nanoTime();
        int status = 500;
        try {
            RestResponse response = chain.proceed(request);
            status = response.status();
            return response;
        } finally {
            String userAgent = request.rest().header("user-agent");
            KeyValues.log(LOG, KlogLevel.V3, "HTTP", "verb", request.rest().method(),
                    "URI", uri(request),
                    "latency", GoDuration.format(Duration.ofNanos(System.nanoTime() - start)),
                    "userAgent", userAgent == null ? "" : userAgent,
                    "audit-ID", request.context().auditId(),
                    "srcIP", request.remoteAddress(),
                    "resp", status);
        }
    }

    /** The path with its query, re-encoded from the decoded parameters. */
    private static String uri(ServerRequest request) {
        StringBuilder uri = new StringBuilder(request.rest().path());
        char separator = '?';
        for (var parameter : request.rest().query().entrySet()) {
            for (String value : parameter.getValue()) {
                uri.append(separator).append(URLEncoder.encode(parameter.getKey(), StandardCharsets.UTF_8))
                        .append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
                separator = '&';
            }
        }
        return uri.toString();
    }
}
