package io.kapi.aggregator;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Status;
import io.kapi.webhook.BoundedExchange;
import io.kapi.webhook.CallErrors;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * kube-aggregator's proxy handler, first in the delegation chain: a request under
 * {@code /apis/<group>/<version>} of an APIService that names a Service goes to that Service's server, with
 * the same method, path, query, headers and body, and who made it in {@code X-Remote-*} headers (it was
 * authenticated and authorized here); the answer comes back as it is, streamed. Everything else passes
 * to the next handler.
 *
 * <p>As on kube-apiserver: an APIService that is not {@code Available} answers {@code 503 service
 * unavailable}, and so does a Service that cannot be resolved; a backend that cannot be reached answers 503
 * with Go's words for the failure; a backend that sends nothing by the request's deadline
 * ({@code --request-timeout}, or the request's {@code timeout} parameter when shorter) answers 504, as kube's
 * timeout filter. Upgrades (exec-style streams) are not proxied.
 */
final class ProxyHandler implements RestHandler {

    private static final System.Logger LOG = System.getLogger(ProxyHandler.class.getName());
    private static final String TEXT = "text/plain; charset=utf-8";
    /** Not passed on: hop-by-hop, set by the client library itself, or credentials meant for this server. */
    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "keep-alive", "transfer-encoding",
            "upgrade", "te", "trailer", "proxy-connection", "proxy-authorization", "content-length", "expect", "date",
            "from", "via", "warning", "authorization", "http2-settings");
    /** Not relayed: hop-by-hop, or written by this server itself (the entity's type and length, the date). */
    private static final Set<String> NOT_RETURNED = Set.of("connection", "keep-alive", "transfer-encoding",
            "content-length", "content-type", "upgrade", "te", "trailer", ":status", "date");
    private static final int CHUNK = 8192;

    private final Supplier<Routes> routes;
    private final ServiceLocator locator;
    private final Backends backends;

    ProxyHandler(Supplier<Routes> routes, ServiceLocator locator, Backends backends) {
        this.routes = routes;
        this.locator = locator;
        this.backends = backends;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        Map<GroupVersion, ApiServiceRoute> byGroupVersion = routes.get().byGroupVersion();
        if (byGroupVersion.isEmpty() || !request.path().startsWith("/apis/")) {
            return null;
        }
        String[] parts = request.path().split("/", 5);
        if (parts.length < 4 || parts[3].isEmpty()) {
            return null;
        }
        ApiServiceRoute route = byGroupVersion.get(new GroupVersion(parts[2], parts[3]));
        if (route == null) {
            return null;
        }
        if (!route.available()) {
            return text(503, "service unavailable");
        }
        URI base;
        try {
            base = locator.locate(route.service());
        } catch (IllegalStateException e) {
            LOG.log(Level.WARNING, "error resolving {0}/{1}: {2}", route.service().namespace(), route.service().name(),
                    e.getMessage());
            return text(503, "service unavailable");
        }
        URI target = URI.create(base + encodePath(request.path()) + query(request.query()));
        HttpClient client;
        try {
            client = backends.forRoute(route);
        } catch (IllegalArgumentException e) {
            return text(500, e.getMessage());
        }
        return forward(client, target, request);
    }

    /**
     * The exchange is a client span ({@code HTTP GET}, as kube's traced transport names it) whose
     * {@code traceparent} the aggregated server gets in place of the caller's; untraced, the caller's
     * passes through.
     */
    private RestResponse forward(HttpClient client, URI target, RestRequest request) {
        try (TraceScope span = Tracing.startClient("HTTP " + request.method(), "http.method", request.method(),
                "http.url", target.toString())) {
            return forwardInSpan(client, target, request);
        }
    }

    private RestResponse forwardInSpan(HttpClient client, URI target, RestRequest request) {
        HttpRequest.Builder out = HttpRequest.newBuilder(target).method(request.method(), body(request));
        boolean traced = Tracing.enabled();
        request.headers().forEach((name, values) -> {
            if (!NOT_FORWARDED.contains(name) && !name.startsWith(":") && !name.startsWith("impersonate-")
                    && !AuthProxyHeaders.OWN.contains(name) && !name.startsWith(AuthProxyHeaders.EXTRA_PREFIX)
                    && !(traced && (name.equals("traceparent") || name.equals("tracestate")))) {
                values.forEach(v -> header(out, name, v));
            }
        });
        Tracing.inject(out::header);
        AuthProxyHeaders.add(out, request.requireContext().user());
        boolean watch = isWatch(request);
        Instant deadline = watch ? null : request.requireContext().deadline();
        HttpResponse<InputStream> answer;
        try {
            answer = deadline == null ? client.send(out.build(), HttpResponse.BodyHandlers.ofInputStream())
                    : BoundedExchange.send(client, out.build(), HttpResponse.BodyHandlers.ofInputStream(),
                            Duration.between(Instant.now(), deadline));
        } catch (BoundedExchange.DeadlineExceeded e) {
            return timedOut();
        } catch (IOException e) {
            return text(503, CallErrors.describe(e, target));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return text(503, "context canceled");
        }
        return relay(answer, watch);
    }

    /** Passes a client's header on, unless the HTTP client refuses it (a name or value it may not send). */
    private static void header(HttpRequest.Builder out, String name, String value) {
        try {
            out.header(name, value);
        } catch (IllegalArgumentException e) {
            LOG.log(Level.DEBUG, "header {0} not passed on: {1}", name, e.getMessage());
        }
    }

    private static RestResponse relay(HttpResponse<InputStream> answer, boolean watch) {
        String contentType = answer.headers().firstValue("content-type").orElse(null);
        InputStream in = answer.body();
        RestResponse.Body body = watch
                ? new RestResponse.Stream(contentType, sink -> {
                    try (in) {
                        byte[] buffer = new byte[CHUNK];
                        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                            if (n > 0) {
                                sink.frame(java.util.Arrays.copyOf(buffer, n));
                                sink.flush();
                            }
                        }
                    }
                })
                : new RestResponse.Encoded(contentType, o -> {
                    try (in) {
                        in.transferTo(o);
                    }
                });
        RestResponse response = new RestResponse(answer.statusCode(), new java.util.ArrayList<>(), body);
        answer.headers().map().forEach((name, values) -> {
            if (!NOT_RETURNED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> response.withHeader(name, v));
            }
        });
        return response;
    }

    private static HttpRequest.BodyPublisher body(RestRequest request) {
        String length = request.header("content-length");
        boolean chunked = request.header("transfer-encoding") != null;
        if ((length == null || length.equals("0")) && !chunked) {
            return HttpRequest.BodyPublishers.noBody();
        }
        HttpRequest.BodyPublisher stream = HttpRequest.BodyPublishers.ofInputStream(request::body);
        if (length == null) {
            return stream;
        }
        try {
            return HttpRequest.BodyPublishers.fromPublisher(stream, Long.parseLong(length));
        } catch (NumberFormatException e) {
            return stream;
        }
    }

    private static boolean isWatch(RestRequest request) {
        String watch = request.param("watch");
        return "true".equals(watch) || "1".equals(watch) || request.path().contains("/watch/");
    }

    /** The query as Go's {@code url.Values.Encode} writes it: keys sorted, values form-encoded. */
    static String query(Map<String, List<String>> query) {
        if (query.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        new TreeMap<>(query).forEach((key, values) -> values.forEach(v -> out.append(out.isEmpty() ? '?' : '&')
                .append(URLEncoder.encode(key, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8))));
        return out.toString();
    }

    /** The decoded path encoded again, segment by segment. */
    private static String encodePath(String path) {
        try {
            return new URI(null, null, path, null).getRawPath();
        } catch (java.net.URISyntaxException e) {
            throw io.kapi.machinery.ApiException.badRequest("invalid path " + path);
        }
    }

    /**
     * kube's answer to a request whose backend sent nothing by the request's deadline: its timeout filter's
     * 504, the Status JSON without a type, which Go's server labels as text.
     */
    private static RestResponse timedOut() {
        return RestResponse.bytes(504, TEXT, (Status.deadlineExceeded() + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** A plain-text answer as Go's {@code http.Error} writes it. */
    private static RestResponse text(int status, String message) {
        return RestResponse.bytes(status, TEXT, (message + "\n").getBytes(StandardCharsets.UTF_8))
                .withHeader("X-Content-Type-Options", "nosniff");
    }
}
