package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoDuration;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import java.time.Duration;
import java.time.Instant;

/**
 * The first filter: parses the request info once (kube's {@code WithRequestInfo}), gives the request
 * its context (audit ID, deadline, warnings sink), and on the way back answers with the context's
 * {@code Audit-Id} and {@code Warning} headers (kube's {@code WithAuditInit} and {@code WithWarningRecorder}). The deadline of a request that is not long-running is
 * {@code --request-timeout} from now, or the {@code timeout} parameter when that is shorter
 * (kube's {@code WithRequestDeadline}).
 */
public final class RequestContextFilter implements Filter {

    private final Duration requestTimeout;

    public RequestContextFilter(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        var rest = request.rest();
        RequestInfo info = RequestInfo.parse(rest.method(), rest.path(), rest.query());
        RequestContext context = RequestContext.of(info, rest.header("Audit-ID"), null, rest.header("User-Agent"));
        RestResponse response;
        try {
            context = new RequestContext(info, loopbackUser(request), context.auditId(),
                    deadline(info, rest.param("timeout")), false, null, null, context.userAgent(), context.warnings(),
                    context.excluded());
            response = chain.proceed(request.withContext(context));
        } catch (ApiException e) {
            response = StatusResponses.of(e, rest.header("Accept"));
        }
        response.withHeader("Audit-Id", context.auditId());
        for (String warning : context.warnings().list()) {
            response.withHeader("Warning", "299 - \"" + warning.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        }
        return response;
    }

    /**
     * The identity of a request the server makes to itself (controllers, bootstrap): it comes with a
     * context holding only its user. Requests from the network come without a context, so never with a user.
     */
    private static io.kapi.user.UserInfo loopbackUser(ServerRequest request) {
        RequestContext given = request.rest().context();
        return given == null ? null : given.user();
    }

    private Instant deadline(RequestInfo info, String timeout) {
        if (info.longRunning()) {
            return null;
        }
        Duration limit = requestTimeout;
        if (timeout != null && !timeout.isEmpty()) {
            Duration asked;
            try {
                asked = GoDuration.parse(timeout);
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("invalid timeout specified in the request URL - " + e.getMessage());
            }
            if (asked.isPositive() && asked.compareTo(limit) < 0) {
                limit = asked;
            }
        }
        return limit.isPositive() ? Instant.now().plus(limit) : null;
    }
}
