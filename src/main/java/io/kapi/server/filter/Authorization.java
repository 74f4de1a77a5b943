package io.kapi.server.filter;

import io.kapi.audit.AuditContext;
import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.endpoint.RestResponse;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusReason;
import java.lang.System.Logger.Level;

/**
 * Lets a request proceed only when the authorizer allows it (kube's {@code WithAuthorization}); a
 * denial, or no opinion from anyone, is a 403 Forbidden Status worded as kube-apiserver's, e.g.
 * {@code pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "x"}.
 * The decision and its reason go into the request's audit event.
 */
public record Authorization(Authorizer authorizer) implements Filter {

    private static final System.Logger LOG = System.getLogger(Authorization.class.getName());
    /** kube's audit annotations of the decision: {@code allow} or {@code forbid}, and the authorizer's reason. */
    static final String DECISION_ANNOTATION = "authorization.k8s.io/decision";
    static final String REASON_ANNOTATION = "authorization.k8s.io/reason";

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        AuthorizationAttributes attributes = AuthorizationAttributes.of(request.context())
                .withFieldSelector(request.rest().param("fieldSelector"));
        Decision decision;
        try (TraceScope span = Tracing.start("Authorize")) {
            decision = authorizer.authorize(attributes);
            span.attribute("decision", decision.getClass().getSimpleName());
        }
        boolean allowed = decision instanceof Decision.Allow;
        AuditContext.annotate(DECISION_ANNOTATION, allowed ? "allow" : "forbid");
        AuditContext.annotate(REASON_ANNOTATION, decision.reason());
        if (allowed) {
            return chain.proceed(request);
        }
        LOG.log(Level.DEBUG, "Forbidden {0} {1}: {2}", request.rest().method(), request.rest().path(),
                decision.reason());
        throw forbidden(attributes, decision.reason());
    }

    /** kube's {@code responsewriters.Forbidden}. */
    static ApiException forbidden(AuthorizationAttributes a, String reason) {
        String message = a.deniedMessage() + (reason.isEmpty() ? "" : ": " + reason);
        String name = a.name().isEmpty() ? null : a.name();
        if (!a.resourceRequest()) {
            return new ApiException(StatusReason.FORBIDDEN, 403, "forbidden: " + message, ApiException.Details.NONE);
        }
        String qualified = a.group().isEmpty() ? a.resource() : a.resource() + "." + a.group();
        String prefix = name == null ? qualified + " is forbidden: " : qualified + " \"" + name + "\" is forbidden: ";
        return new ApiException(StatusReason.FORBIDDEN, 403, prefix + message, new ApiException.Details(name,
                a.group().isEmpty() ? null : a.group(), a.resource(), java.util.List.of(), null));
    }
}
