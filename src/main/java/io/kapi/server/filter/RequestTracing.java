package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.request.RequestInfo;
import io.kapi.user.SystemUsers;
import io.kapi.user.UserInfo;
import java.util.Set;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;

/**
 * A span per request ({@code --tracing-config-file}), named as kube-apiserver names it:
 * {@code POST /api/v1/namespaces/{:namespace}/configmaps} for a resource request (names and namespaces
 * as placeholders, so names stay few), the bare method ({@code GET}) for any other path; with the
 * target, the audit ID and the response code. Right after authentication, as kube's: the caller's
 * {@code traceparent} is its parent only for a trusted user ({@code system:masters},
 * {@code system:monitoring}), a link otherwise; the span still starts when authentication did, which
 * is its first child. Without tracing, or at sampling 0 for a request without a {@code traceparent}, it only
 * passes the request on.
 */
public final class RequestTracing implements Filter {

    private static final Set<String> TRUSTED = Set.of(SystemUsers.MASTERS, "system:monitoring");

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        if (!Tracing.mayTrace(request.rest().headers())) {
            return chain.proceed(request); // no span, and no span name, attributes or parent to work out
        }
        String method = request.rest().method();
        UserInfo user = request.context().user();
        boolean trusted = false;
        if (user != null) {
            for (String group : user.groups()) {
                trusted |= TRUSTED.contains(group);
            }
        }
        try (TraceScope span = Tracing.startServer(spanName(request.context().info(), method), request.rest().headers(),
                trusted, "http.method", method, "http.target", request.rest().path(),
                "audit-id", request.context().auditId())) {
            span.attribute("http.user_agent", request.rest().header("user-agent"));
            try {
                RestResponse response = chain.proceed(request);
                span.attribute("http.status_code", response.status());
                return response;
            } catch (ApiException e) {
                span.attribute("http.status_code", e.code());
                throw e;
            }
        }
    }

    /** kube's {@code getSpanNameFromRequestInfo}. */
    static String spanName(RequestInfo info, String method) {
        if (info == null || !info.resourceRequest()) {
            return method;
        }
        StringBuilder name = new StringBuilder(method).append(" /").append(info.apiPrefix());
        if (!info.group().isEmpty()) {
            name.append('/').append(info.group());
        }
        name.append('/').append(info.version());
        if (!info.namespace().isEmpty()) {
            name.append("/namespaces/{:namespace}");
        }
        name.append('/').append(info.resource());
        if (!info.name().isEmpty()) {
            name.append("/{:name}");
        }
        if (!info.subresource().isEmpty()) {
            name.append('/').append(info.subresource());
        }
        return name.toString();
    }
}
