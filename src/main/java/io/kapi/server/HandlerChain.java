package io.kapi.server;

import io.kapi.endpoint.RestHandler;
import io.kapi.server.filter.Authentication;
import io.kapi.server.filter.Authorization;
import io.kapi.server.filter.BodyDeadline;
import io.kapi.server.filter.BodyLimit;
import io.kapi.server.filter.CacheControl;
import io.kapi.server.filter.Filter;
import io.kapi.server.filter.FilterChain;
import io.kapi.server.filter.PanicRecovery;
import io.kapi.server.filter.RequestContextFilter;
import io.kapi.server.filter.RequestLog;
import io.kapi.server.filter.WriteOptions;
import java.util.List;

/**
 * The whole request path in front of the handlers, in request order, as kube-apiserver's
 * {@code DefaultBuildHandlerChain} reads bottom-up:
 * <pre>
 *   request context (request info, audit ID, deadline, warnings) → request log → panic recovery
 *     → cache control → body limit → body deadline → authentication → authorization → write options
 *     → handler
 * </pre>
 * One list, used by the HTTPS server and by in-memory tests alike.
 */
public final class HandlerChain {

    private HandlerChain() {
    }

    /** @param maxBodyBytes request bodies above this are refused with 413 */
    public static FilterChain build(ServerConfig.Security security, long maxBodyBytes, RestHandler handler) {
        List<Filter> filters = List.of(
                new RequestContextFilter(security.requestTimeout()),
                new RequestLog(),
                new PanicRecovery(),
                new CacheControl(),
                new BodyLimit(maxBodyBytes),
                new BodyDeadline(),
                new Authentication(security.authenticator()),
                new Authorization(security.authorizer()),
                new WriteOptions());
        return FilterChain.of(filters, handler);
    }
}
