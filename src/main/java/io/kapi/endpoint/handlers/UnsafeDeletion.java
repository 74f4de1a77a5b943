package io.kapi.endpoint.handlers;

import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.machinery.ApiException;
import io.kapi.registry.DeleteOptions;
import io.kapi.request.RequestInfo;
import io.kapi.request.Verb;
import java.util.List;
import java.util.function.Supplier;

/**
 * Who may delete an object whose stored value cannot be read ({@code ignoreStoreReadErrorWithClusterBreakingPotential}),
 * as kube-apiserver decides: only with the {@code AllowUnsafeMalformedObjectDeletion} feature gate (without it the
 * option is dropped), and only a user who, besides {@code delete} (which the authorization filter checked), may
 * {@code unsafe-delete-ignore-read-errors} the resource.
 *
 * @param enabled whether the feature gate is on
 * @param authorizer the server's authorizer, once built
 */
public record UnsafeDeletion(boolean enabled, Supplier<Authorizer> authorizer) {

    /** The option dropped: unsafe deletion is never allowed. */
    public static final UnsafeDeletion OFF = new UnsafeDeletion(false, () -> null);

    /** {@code options} as the request may use them: the option dropped without the gate, 403 without the verb. */
    DeleteOptions allow(ResourceRequest r, DeleteOptions options) {
        if (!options.ignoreStoreReadErrors()) {
            return options;
        }
        if (!enabled) {
            return options.safe();
        }
        RequestInfo info = r.info();
        var attributes = new AuthorizationAttributes(r.context().user(), Verb.UNSAFE_DELETE, true, info.group(), info.version(),
                info.resource(), info.subresource(), info.namespace(), info.name(), info.path());
        if (!(authorizer.get().authorize(attributes) instanceof Decision.Allow)) {
            throw ApiException.forbidden(r.resource().gvr(), info.name(),
                    "not permitted to do \"" + Verb.UNSAFE_DELETE.apiName() + "\"", List.of());
        }
        return options;
    }
}
