package io.kapi.authn;

import io.kapi.endpoint.RestRequest;
import io.kapi.user.UserInfo;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * Tells who made a request, like {@code authenticator.Request} in k8s.io/apiserver. An authenticator
 * answers empty when the request carries no credential it understands, so the next one may try; it
 * throws {@link io.kapi.machinery.ApiException#unauthorized()} for a credential it understands but
 * rejects (an expired token): in a {@link #union} the others still try, and when none accepts the request
 * it is 401, never anonymous. The {@code system:authenticated} group is added by the caller.
 */
@FunctionalInterface
public interface Authenticator {

    /**
     * @param request the request, with {@code user} not yet set
     * @param clientCertificates the TLS client chain, leaf first, as presented: the TLS layer has only
     *                           checked that the client holds the leaf's key, so an authenticator that
     *                           uses the chain verifies it; empty when none was presented
     */
    Optional<UserInfo> authenticate(RestRequest request, List<X509Certificate> clientCertificates);

    /**
     * Asks each authenticator in turn, as kube's union authenticator: the first that accepts the request
     * wins; when none does, a rejection by any of them is 401 (no hint which), else empty.
     */
    static Authenticator union(List<Authenticator> authenticators) {
        List<Authenticator> copy = List.copyOf(authenticators);
        return (request, certs) -> {
            io.kapi.machinery.ApiException rejected = null;
            for (Authenticator a : copy) {
                try {
                    Optional<UserInfo> user = a.authenticate(request, certs);
                    if (user.isPresent()) {
                        return user;
                    }
                } catch (io.kapi.machinery.ApiException e) {
                    if (e.code() != 401) {
                        throw e;
                    }
                    rejected = e;
                }
            }
            if (rejected != null) {
                throw io.kapi.machinery.ApiException.unauthorized();
            }
            return Optional.empty();
        };
    }
}
