package io.kapi.authz;

import java.util.List;

/**
 * Decides whether a request may proceed, as kube's {@code authorizer.Authorizer}. Called once per
 * request by the authorization filter, after authentication, and by APIs that ask about other verbs
 * (impersonation, RBAC escalation checks). Implementations must be thread-safe and fast: the answer
 * should come from memory.
 */
@FunctionalInterface
public interface Authorizer {

    Decision authorize(AuthorizationAttributes attributes);

    /**
     * kube's union authorizer: asks each in turn; the first {@link Decision.Allow} or {@link Decision.Deny}
     * decides; when all have no opinion, the answer is no opinion with their reasons joined.
     */
    static Authorizer chain(List<Authorizer> authorizers) {
        List<Authorizer> copy = List.copyOf(authorizers);
        return attributes -> {
            StringBuilder reasons = new StringBuilder();
            for (Authorizer a : copy) {
                Decision d = a.authorize(attributes);
                switch (d) {
                    case Decision.Allow allow -> {
                        return allow;
                    }
                    case Decision.Deny deny -> {
                        return deny;
                    }
                    case Decision.NoOpinion none -> {
                        if (!none.reason().isEmpty()) {
                            reasons.append(reasons.isEmpty() ? "" : ", ").append(none.reason());
                        }
                    }
                }
            }
            return new Decision.NoOpinion(reasons.toString());
        };
    }
}
