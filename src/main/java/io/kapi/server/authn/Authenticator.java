package io.kapi.server.authn;

import io.kapi.authn.UserInfo;
import io.kapi.endpoint.RestRequest;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * Tells who made a request, like {@code authenticator.Request} in k8s.io/apiserver. An authenticator
 * answers empty when the request carries no credential it understands, so the next one may try; it
 * throws {@link io.kapi.machinery.ApiException#unauthorized()} for a credential it understands but
 * rejects (an expired token). The {@code system:authenticated} group is added by the caller.
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

    /** Asks each authenticator in turn; the first answer wins. */
    static Authenticator union(List<Authenticator> authenticators) {
        List<Authenticator> copy = List.copyOf(authenticators);
        return (request, certs) -> {
            for (Authenticator a : copy) {
                Optional<UserInfo> user = a.authenticate(request, certs);
                if (user.isPresent()) {
                    return user;
                }
            }
            return Optional.empty();
        };
    }
}
