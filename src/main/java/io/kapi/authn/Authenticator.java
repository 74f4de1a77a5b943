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
 * rejects (an expired token, a certificate that does not verify): in a {@link #union} the others still try,
 * and when none accepts the request it is 401. Such a rejection is never turned into an anonymous user:
 * anonymous comes {@linkplain #failOnError after} the union, for requests that presented no credential.
 * The {@code system:authenticated} group is added by the caller.
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

    /**
     * kube's {@code union.NewFailOnError(credentials, anonymous)}: {@code credentials} decides, and only a
     * request it neither accepts nor rejects (no credential presented) is asked of {@code fallback}. A
     * credential that fails (a bad token, a forged or tampered JWT, a token for another audience, a client
     * certificate that does not verify) is 401, never anonymous: clients rely on that 401 to refresh it.
     */
    static Authenticator failOnError(Authenticator credentials, Authenticator fallback) {
        return (request, certs) -> {
            Optional<UserInfo> user = credentials.authenticate(request, certs);
            return user.isPresent() ? user : fallback.authenticate(request, certs);
        };
    }
}
