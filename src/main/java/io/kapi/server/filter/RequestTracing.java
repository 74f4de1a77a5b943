package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.request.RequestInfo;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;

/**
 * A span per request ({@code --tracing-config-file}), child of the caller's W3C {@code traceparent},
 * named as kube-apiserver names it: {@code POST /api/v1/namespaces/{:namespace}/configmaps} for a
 * resource request (names and namespaces as placeholders, so names stay few), the bare method
 * ({@code GET}) for any other path; with the target, the audit ID and the response code. Placed
 * before authentication, so that authentication, authorization and everything after are its children.
 * Without tracing it only passes the request on.
 */
public final class RequestTracing implements Filter {

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        if (!Tracing.enabled()) {
            return chain.proceed(request);
        }
        String method = request.rest().method();
        try (TraceScope span = Tracing.startServer(spanName(request.context().info(), method), request.rest().headers(),
                "http.method", method, "http.target", request.rest().path(),
                "audit-id", request.context().auditId())) {
            String userAgent = request.rest().header("user-agent");
            span.attribute("http.user_agent", userAgent);
            RestResponse response = chain.proceed(request);
            span.attribute("http.status_code", response.status());
            return response;
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
