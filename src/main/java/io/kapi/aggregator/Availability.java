package io.kapi.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.webhook.BoundedExchange;
import io.kapi.webhook.CallErrors;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * kube-aggregator's remote availability check of one APIService that names a Service, in its order and
 * words: the Service exists; a cluster-IP Service listens on the port and has EndpointSlices with a
 * ready endpoint on that port's name; the backend answers {@code GET /apis/<group>/<version>} with a 2xx
 * within 5 seconds, the whole exchange held to them (its certificate not checked, the caller
 * {@code system:kube-aggregator} in {@code system:masters}). Checks of several APIServices may run at once.
 * What it answered is the group-version's resources for discovery; its OpenAPI documents (v3:
 * {@code /openapi/v3/apis/<group>/<version>}, v2: {@code /openapi/v2}; at most 8 MiB each) are fetched with it for
 * {@code /openapi/v3} and {@code /openapi/v2}, at most once a minute (as kube's OpenAPI aggregation refreshes), not
 * on every check.
 */
final class Availability {

    private static final GroupVersionResource SLICES = new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** The most of a backend's answer read: a discovery document or an OpenAPI document larger is not used. */
    private static final int BODY_MAX = 8 << 20;
    private static final long OPENAPI_REFRESH_NANOS = TimeUnit.MINUTES.toNanos(1);

    /** A backend's OpenAPI documents and when they were read. */
    private record Fetched(long nanos, OpenApi documents) {
    }

    /**
     * A backend's OpenAPI documents as JSON: its v2 document and the v3 document of the group-version; each
     * null when it serves none.
     */
    record OpenApi(String v2, String v3) {
        static final OpenApi NONE = new OpenApi(null, null);
    }

    /**
     * The outcome: the {@code Available} condition's status, reason and message, the resources read, and the
     * backend's OpenAPI documents.
     */
    record Result(String status, String reason, String message, ObjectNode resourceList, OpenApi openApi) {

        static Result failed(String reason, String message) {
            return new Result("False", reason, message, null, OpenApi.NONE);
        }
    }

    private final ObjectLookup lookup;
    private final ServiceLocator locator;
    private final Backends backends;
    private final Map<GroupVersion, Fetched> openApi = new ConcurrentHashMap<>();

    Availability(ObjectLookup lookup, ServiceLocator locator, Backends backends) {
        this.lookup = lookup;
        this.locator = locator;
        this.backends = backends;
    }

    Result check(ApiServiceRoute route) {
        ApiServiceRoute.ServiceRef s = route.service();
        String service = "service/" + s.name() + " in \"" + s.namespace() + "\"";
        ObjectNode svc = lookup.cached(ServiceLocator.SERVICES, s.namespace(), s.name()).orElse(null);
        if (svc == null) {
            return Result.failed("ServiceNotFound", service + " is not present");
        }
        String type = svc.path("spec").path("type").asText("ClusterIP");
        if (type.equals("ClusterIP") || type.isEmpty()) {
            String portName = portName(svc, s.port());
            if (portName == null) {
                return Result.failed("ServicePortError", service + " is not listening on port " + s.port());
            }
            Result endpoints = endpoints(s, service, portName);
            if (endpoints != null) {
                return endpoints;
            }
        }
        return discovery(route);
    }

    private static String portName(ObjectNode service, int port) {
        for (JsonNode p : service.path("spec").path("ports")) {
            if (p.path("port").asInt() == port) {
                return p.path("name").asText("");
            }
        }
        return null;
    }

    /** Null when some slice of the Service has a ready endpoint and a port named {@code portName}. */
    private Result endpoints(ApiServiceRoute.ServiceRef s, String service, String portName) {
        boolean any = false;
        for (ObjectNode slice : lookup.cachedList(SLICES, s.namespace())) {
            if (!s.name().equals(ObjectMeta.of(slice).labels().get("kubernetes.io/service-name"))) {
                continue;
            }
            any = true;
            if (hasReadyEndpoint(slice) && hasPort(slice, portName)) {
                return null;
            }
        }
        return any ? Result.failed("MissingEndpoints", "endpointslices for " + service
                + " have no addresses with port name \"" + portName + "\"")
                : Result.failed("EndpointsNotFound", "cannot find endpointslices for " + service);
    }

    private static boolean hasReadyEndpoint(ObjectNode slice) {
        for (JsonNode e : slice.path("endpoints")) {
            JsonNode ready = e.path("conditions").path("ready");
            if (ready.isMissingNode() || ready.isNull() || ready.asBoolean()) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasPort(ObjectNode slice, String portName) {
        for (JsonNode p : slice.path("ports")) {
            if (p.has("name") && p.path("name").asText().equals(portName) && p.hasNonNull("port")) {
                return true;
            }
        }
        return false;
    }

    private Result discovery(ApiServiceRoute route) {
        URI url;
        try {
            url = URI.create(locator.locate(route.service()) + "/apis/" + route.groupVersion().group() + "/"
                    + route.groupVersion().version());
        } catch (IllegalStateException e) {
            return Result.failed("FailedDiscoveryCheck", e.getMessage());
        }
        Answer answer;
        try {
            answer = get(url);
        } catch (BoundedExchange.DeadlineExceeded e) {
            return missing(url, "Get \"" + url + "\": context deadline exceeded (Client.Timeout exceeded while awaiting "
                    + "headers)");
        } catch (IOException e) {
            return missing(url, "Get \"" + url + "\": " + CallErrors.describe(e, url));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return missing(url, "context canceled");
        }
        if (answer.status() < 200 || answer.status() >= 300) {
            return Result.failed("FailedDiscoveryCheck", "failing or missing response from " + url + ": bad status from "
                    + url + ": " + answer.status());
        }
        return new Result("True", "Passed", "all checks passed", answer.body() == null ? null : resourceList(answer.body()),
                openApi(route.groupVersion(), url));
    }

    /** Forgets the OpenAPI documents of group-versions no APIService routes any more. */
    void retain(Set<GroupVersion> routed) {
        openApi.keySet().retainAll(routed);
    }

    /** The backend's OpenAPI documents of {@code gv}, read again when the last read is a minute old. */
    private OpenApi openApi(GroupVersion gv, URI discovery) {
        long now = System.nanoTime();
        Fetched last = openApi.get(gv);
        if (last == null || now - last.nanos() > OPENAPI_REFRESH_NANOS) {
            last = new Fetched(now, new OpenApi(fetchJsonObject(discovery.resolve("/openapi/v2")),
                    fetchJsonObject(discovery.resolve("/openapi/v3" + discovery.getRawPath()))));
            openApi.put(gv, last);
        }
        return last.documents();
    }

    /** The JSON object the backend serves at {@code url}, or null when it answers anything else. */
    private String fetchJsonObject(URI url) {
        try {
            Answer answer = get(url);
            if (answer.status() != 200 || answer.body() == null || answer.body().length == 0
                    || !(Json.MAPPER.readTree(answer.body()) instanceof ObjectNode)) {
                return null;
            }
            return new String(answer.body(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static Result missing(URI url, String cause) {
        return Result.failed("FailedDiscoveryCheck", "failing or missing response from " + url + ": " + cause);
    }

    /**
     * A GET of {@code url} as the aggregator's check makes it, held as a whole to {@link #TIMEOUT} (kube's
     * {@code http.Client.Timeout}): its status and at most {@link #BODY_MAX} bytes of its body. A body that
     * is larger, or does not all come in time, is given up (the exchange ended) and reads as null: kube's
     * check looks at the status alone, and a backend cannot make it hold more, or longer.
     *
     * @throws BoundedExchange.DeadlineExceeded no status came in time
     */
    private Answer get(URI url) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(url).header("Accept", "application/json")
                .header("X-Remote-User", "system:kube-aggregator").header("X-Remote-Group", "system:masters")
                .GET().build();
        AtomicInteger status = new AtomicInteger(-1);
        try {
            HttpResponse<byte[]> answer = BoundedExchange.send(backends.unverified(), request, info -> {
                status.set(info.statusCode());
                return HttpResponse.BodySubscribers.limiting(HttpResponse.BodySubscribers.ofByteArray(), BODY_MAX);
            }, TIMEOUT);
            return new Answer(answer.statusCode(), answer.body());
        } catch (BoundedExchange.DeadlineExceeded e) {
            if (!e.answered()) {
                throw e;
            }
            return new Answer(e.status(), null);
        } catch (IOException e) {
            if (status.get() < 0) {
                throw e;
            }
            return new Answer(status.get(), null);
        }
    }

    /** A backend's status code and body (null when it was larger than {@link #BODY_MAX} or did not all come). */
    private record Answer(int status, byte[] body) {
    }

    /** The backend's APIResourceList, or null when it answered something else. */
    private static ObjectNode resourceList(byte[] body) {
        try {
            JsonNode doc = Json.MAPPER.readTree(body);
            return doc instanceof ObjectNode o && o.path("resources").isArray() ? o : null;
        } catch (IOException e) {
            return null;
        }
    }
}
