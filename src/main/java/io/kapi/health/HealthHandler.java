package io.kapi.health;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Serves {@code /healthz}, {@code /livez} and {@code /readyz} with kube-apiserver's behaviour:
 * <ul>
 *   <li>{@code GET /readyz} → 200 {@code ok}, or 500 with the verbose report when a check fails;</li>
 *   <li>{@code ?verbose} → one {@code [+]name ok} line per check and {@code readyz check passed};</li>
 *   <li>{@code ?exclude=name} (repeatable) → the check is skipped and shown as excluded;</li>
 *   <li>{@code GET /readyz/{check}} → {@code ok}, or 500 {@code internal server error: ...}.</li>
 * </ul>
 * Answers null for other paths so the delegation chain goes on. Bodies are {@code text/plain}.
 */
public final class HealthHandler implements RestHandler {

    private static final String TEXT = "text/plain; charset=utf-8";
    private final Map<String, List<HealthCheck>> endpoints;
    private final HealthObserver observer;

    /**
     * @param checks the checks, in display order (ping, log, storage, post-start hooks, shutdown); those
     *               {@linkplain HealthCheck#readyzOnly() of readyz only} are left out of {@code /healthz} and
     *               {@code /livez}
     */
    public HealthHandler(List<HealthCheck> checks) {
        this(checks, HealthObserver.NONE);
    }

    /** @param observer told each check's result (the health SLIs) */
    public HealthHandler(List<HealthCheck> checks, HealthObserver observer) {
        this.observer = observer;
        List<HealthCheck> live = checks.stream().filter(c -> !c.readyzOnly()).toList();
        this.endpoints = Map.of("healthz", live, "livez", live, "readyz", List.copyOf(checks));
    }

    /** Serves /healthz, /livez, /readyz only, never a resource request. */
    @Override
    public boolean servesResources() {
        return false;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        String path = request.path();
        int slash = path.indexOf('/', 1);
        String endpoint = slash < 0 ? path.substring(1) : path.substring(1, slash);
        List<HealthCheck> checks = endpoints.get(endpoint);
        if (checks == null) {
            return null;
        }
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            throw ApiException.methodNotAllowed();
        }
        if (slash < 0) {
            List<String> exclude = request.query().getOrDefault("exclude", List.of());
            HealthReport report = HealthReport.run(endpoint, checks, exclude, observer);
            return text(report.passed() ? 200 : 500, report.body(request.query().containsKey("verbose")));
        }
        String name = path.substring(slash + 1);
        for (HealthCheck check : checks) {
            if (check.name().equals(name)) {
                return single(check, request);
            }
        }
        throw ApiException.pathNotFound();
    }

    /** One check: the reason is shown only to authenticated users, like the rest of the API. */
    private static RestResponse single(HealthCheck check, RestRequest request) {
        try {
            check.check();
            return text(200, "ok");
        } catch (Exception e) {
            boolean anonymous = request.user() == null
                    || request.user().groups().contains("system:unauthenticated");
            return text(500, "internal server error: " + (anonymous ? "reason withheld" : e.getMessage()) + "\n");
        }
    }

    private static RestResponse text(int status, String body) {
        return RestResponse.bytes(status, TEXT, body.getBytes(StandardCharsets.UTF_8))
                .withHeader("X-Content-Type-Options", "nosniff");
    }
}
