package io.kapi.server;

import io.kapi.audit.Auditor;
import io.kapi.authz.Authorizer;
import io.kapi.endpoint.RestHandler;
import io.kapi.flowcontrol.FlowControl;
import io.kapi.server.filter.Audit;
import io.kapi.server.filter.Authentication;
import io.kapi.server.filter.Authorization;
import io.kapi.server.filter.BodyDeadline;
import io.kapi.server.filter.BodyLimit;
import io.kapi.server.filter.CacheControl;
import io.kapi.server.filter.Filter;
import io.kapi.server.filter.FilterChain;
import io.kapi.server.filter.FlowControlFilter;
import io.kapi.server.filter.Impersonation;
import io.kapi.server.filter.PanicRecovery;
import io.kapi.server.filter.RequestContextFilter;
import io.kapi.server.filter.RequestLog;
import io.kapi.server.filter.RequestMetricsFilter;
import io.kapi.server.filter.RequestTracing;
import io.kapi.server.filter.WriteOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The whole request path in front of the handlers, in request order, as kube-apiserver's
 * {@code DefaultBuildHandlerChain} reads bottom-up:
 * <pre>
 *   request context (request info, audit ID, deadline, warnings) → request log → request metrics → panic recovery
 *     → cache control → body limit → body deadline → authentication → request span → audit → impersonation
 *     → flow control → authorization
 *     → write options
 *     → handler
 * </pre>
 * One list, used by the HTTPS server and by in-memory tests alike.
 */
public final class HandlerChain {

    private HandlerChain() {
    }

    /** @param maxBodyBytes request bodies above this are refused with 413 */
    public static FilterChain build(ServerConfig.Security security, long maxBodyBytes, RestHandler handler) {
        return build(security, maxBodyBytes, null, handler);
    }

    /** @param observability where requests are recorded; null records nothing */
    public static FilterChain build(ServerConfig.Security security, long maxBodyBytes,
                                    ServerConfig.Observability observability, RestHandler handler) {
        Audit audit = new Audit(security.auditor());
        List<Filter> filters = new ArrayList<>(List.of(
                new RequestContextFilter(security.requestTimeout()),
                new RequestLog()));
        RequestMetricsFilter requestMetrics = observability == null ? null
                : new RequestMetricsFilter(observability.metrics().requests(), observability.served());
        if (requestMetrics != null) {
            filters.add(requestMetrics);
        }
        filters.addAll(List.of(
                new PanicRecovery(),
                new CacheControl(),
                new BodyLimit(maxBodyBytes),
                new BodyDeadline(),
                audit.failedAuthentication(),
                new Authentication(security.authenticator(),
                        observability == null ? null : observability.metrics().security()),
                new RequestTracing(),
                audit,
                new Impersonation(security.authorizer()),
                requestMetrics == null ? new FlowControlFilter(security.flowControl(), security.requestTimeout())
                        : new FlowControlFilter(security.flowControl(), security.requestTimeout(),
                                requestMetrics::terminated),
                new Authorization(security.authorizer()),
                new WriteOptions()));
        return FilterChain.of(filters, handler);
    }

    /**
     * The chain of requests made in-process with their user already set (the server's loopback clients,
     * an API served without sockets): the same filters, no credential to read, {@code authorizer}
     * deciding, kube-apiserver's default request timeout.
     */
    public static FilterChain inProcess(Authorizer authorizer, RestHandler handler) {
        return inProcess(authorizer, null, handler);
    }

    /** {@link #inProcess(Authorizer, RestHandler)}, its requests recorded in {@code observability} (kube counts self-requests). */
    public static FilterChain inProcess(Authorizer authorizer, ServerConfig.Observability observability,
                                        RestHandler handler) {
        return inProcess(authorizer, observability, Auditor.DISABLED, handler);
    }

    /**
     * {@link #inProcess(Authorizer, ServerConfig.Observability, RestHandler)}, its requests audited by
     * {@code auditor} as kube-apiserver audits its loopback requests (and kube-controller-manager's, whose
     * controllers Kapi runs in-process).
     */
    public static FilterChain inProcess(Authorizer authorizer, ServerConfig.Observability observability,
                                        Auditor auditor, RestHandler handler) {
        return build(new ServerConfig.Security((request, certificates) -> Optional.empty(), authorizer,
                Duration.ofMinutes(1), FlowControl.NONE, auditor), BodyLimit.DEFAULT_MAX_BYTES, observability, handler);
    }
}
