package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.metrics.RequestMetrics;
import io.kapi.metrics.RequestMetrics.Labels;
import io.kapi.request.RequestInfo;
import io.kapi.request.Verb;
import io.kapi.user.SystemUsers;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Records every answered request in kube-apiserver's request families, labelled as kube's
 * {@code MonitorRequest} labels them: the verb from the HTTP method and scope ({@code LIST} for a GET of a
 * collection, {@code WATCH}, {@code APPLY}, {@code CONNECT}, {@code other} for unknown methods), the dry-run
 * value as given ({@code invalid} when it is not {@code All}), group, version, resource, subresource and
 * scope. Label values come only from served resources: a request for a resource the server does not serve
 * is not recorded (kube's router never reaches its metrics), and non-resource requests only for the health
 * endpoints, under their path, as kube's do. Streamed responses (watches) count as long-running while they
 * last and are recorded when they end; encoded lists when their last byte is written.
 */
public final class RequestMetricsFilter implements Filter {

    private static final Set<String> METHODS = Set.of("APPLY", "CONNECT", "CREATE", "DELETE", "DELETECOLLECTION",
            "GET", "LIST", "PATCH", "POST", "PROXY", "PUT", "UPDATE", "WATCH", "WATCHLIST");
    private static final Set<String> CONNECT_SUBRESOURCES = Set.of("proxy", "exec", "attach", "portforward");
    private static final List<String> HEALTH_PATHS = List.of("/healthz", "/livez", "/readyz");
    private static final String COMPONENT = "apiserver";

    private final RequestMetrics metrics;
    private final Function<RequestInfo, GroupVersionResource> served;

    /**
     * @param served the served resource a resource request names, in the API's own strings (which are the
     *               same objects for every request, so a request's labels find its series without comparing
     *               characters), or null when the server does not serve it
     */
    public RequestMetricsFilter(RequestMetrics metrics, Function<RequestInfo, GroupVersionResource> served) {
        this.metrics = metrics;
        this.served = served;
    }

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        long start = System.nanoTime();
        RequestInfo info = request.context().info();
        boolean longRunning = info.longRunning();
        RequestMetrics.InFlight inFlight = longRunning ? null
                : metrics.inFlight(info.verb() != null && info.verb().writes());
        RestResponse response;
        try {
            response = chain.proceed(request);
        } catch (RuntimeException | Error e) {
            if (inFlight != null) {
                inFlight.close();
            }
            record(request, info, 500, start, -1, false);
            throw e;
        }
        if (inFlight != null) {
            inFlight.close();
        }
        return switch (response.body()) {
            case RestResponse.Bytes bytes -> {
                record(request, info, response.status(), start, bytes.data() == null ? 0 : bytes.data().length,
                        longRunning);
                yield response;
            }
            case RestResponse.Encoded encoded -> new RestResponse(response.status(), response.headers(),
                    new RestResponse.Encoded(encoded.contentType(), out -> {
                        Counting counting = new Counting(out);
                        boolean done = false;
                        try {
                            encoded.writer().writeTo(counting);
                            done = true;
                        } finally {
                            record(request, info, response.status(), start, counting.count, longRunning);
                            if (!done) {
                                aborted(request, info);
                            }
                        }
                    }));
            case RestResponse.Stream stream -> streamed(request, info, response, stream, start);
        };
    }

    private RestResponse streamed(ServerRequest request, RequestInfo info, RestResponse response,
                                  RestResponse.Stream stream, long start) {
        Labels labels = labels(request, info);
        if (labels == null) {
            return response;
        }
        return new RestResponse(response.status(), response.headers(), new RestResponse.Stream(stream.contentType(),
                sink -> {
                    metrics.longRunningStarted(labels);
                    try {
                        stream.writer().writeTo(sink);
                    } finally {
                        metrics.longRunningEnded(labels);
                        metrics.completed(labels, response.status(), seconds(start), seconds(start), -1, true,
                                self(request));
                    }
                }));
    }

    private void record(ServerRequest request, RequestInfo info, int status, long start, long bytes,
                        boolean longRunning) {
        Labels labels = labels(request, info);
        if (labels == null) {
            return;
        }
        double seconds = seconds(start);
        double sliSeconds = Math.max(0, seconds - request.context().excluded().nanos() / 1e9);
        metrics.completed(labels, status, seconds, sliSeconds, bytes, longRunning, self(request));
        if (status == 504 && request.context().expired()) {
            metrics.terminated(labels, status); // kube's timeout filter records the requests it ends
        }
    }

    /** A request the server refused to protect itself (flow control's 429), recorded as kube's filters do. */
    public void terminated(ServerRequest request, int code) {
        Labels labels = labels(request, request.context().info());
        if (labels != null) {
            metrics.terminated(labels, code);
        }
    }

    private void aborted(ServerRequest request, RequestInfo info) {
        Labels labels = labels(request, info);
        if (labels != null) {
            metrics.aborted(labels);
        }
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static boolean self(ServerRequest request) {
        var user = request.rest().requireContext().user();
        return user != null && SystemUsers.APISERVER.name().equals(user.name());
    }

    /** The request's labels, or null when it is not one kube records (an unserved resource, an unknown path). */
    Labels labels(ServerRequest request, RequestInfo info) {
        String method = method(request.rest().method());
        if (!info.resourceRequest()) {
            String health = healthPath(info.path());
            if (health == null) {
                return null;
            }
            return new Labels(verb(method, "", info, request), "", "", "", "", health, "", COMPONENT);
        }
        GroupVersionResource resource = served.apply(info);
        if (resource == null) {
            return null;
        }
        String scope = !info.name().isEmpty() || info.verb() == Verb.CREATE ? "resource"
                : !info.namespace().isEmpty() ? "namespace" : "cluster";
        return new Labels(verb(method, scope, info, request), dryRun(request), resource.group(), resource.version(),
                resource.resource(), subresource(info.subresource()), scope, COMPONENT);
    }

    /** The method in upper case; the usual ones as constants, which the verbs' labels then are too. */
    private static String method(String method) {
        return switch (method) {
            case "GET" -> "GET";
            case "POST" -> "POST";
            case "PUT" -> "PUT";
            case "PATCH" -> "PATCH";
            case "DELETE" -> "DELETE";
            case "HEAD" -> "HEAD";
            default -> method.toUpperCase(Locale.ROOT);
        };
    }

    /** kube's {@code cleanVerb(CanonicalVerb(method, scope))}. */
    private static String verb(String method, String scope, RequestInfo info, ServerRequest request) {
        String verb = method;
        if (method.equals("GET") || method.equals("HEAD")) {
            verb = !scope.equals("resource") && !scope.isEmpty() ? "LIST" : "GET";
        }
        if (info.verb() == Verb.WATCH) {
            return "WATCH";
        }
        if (verb.equals("PATCH") && "application/apply-patch+yaml".equals(contentType(request))) {
            verb = "APPLY";
        }
        if (info.resourceRequest() && CONNECT_SUBRESOURCES.contains(first(info.subresource()))) {
            verb = "CONNECT";
        }
        return METHODS.contains(verb) ? verb : "other";
    }

    private static String contentType(ServerRequest request) {
        String type = request.rest().header("Content-Type");
        if (type == null) {
            return null;
        }
        int semi = type.indexOf(';');
        return (semi < 0 ? type : type.substring(0, semi)).trim();
    }

    /** A subresource's first segment: {@code proxy/some/path} is {@code proxy}, so paths make no series. */
    private static String subresource(String subresource) {
        return first(subresource);
    }

    private static String first(String subresource) {
        int slash = subresource.indexOf('/');
        return slash < 0 ? subresource : subresource.substring(0, slash);
    }

    private static String healthPath(String path) {
        for (String health : HEALTH_PATHS) {
            if (path.equals(health)) {
                return health;
            }
        }
        return null;
    }

    /** kube's {@code cleanDryRun}: the values sorted and de-duplicated, {@code invalid} unless each is {@code All}. */
    private static String dryRun(ServerRequest request) {
        List<String> values = request.rest().query().get("dryRun");
        if (values == null || values.isEmpty()) {
            return "";
        }
        TreeSet<String> distinct = new TreeSet<>(values);
        if (distinct.size() != 1 || !distinct.first().equals("All")) {
            return "invalid";
        }
        return "All";
    }

    /** Counts what passes through. */
    private static final class Counting extends FilterOutputStream {
        long count;

        Counting(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
