package io.kapi.authn;

import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.user.UserInfo;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * The fallback of the chain, as kube's {@code anonymous} one (asked through
 * {@link Authenticator#failOnError}, so only for a request that presented no credential: one whose
 * credential was refused is 401): a request no one else authenticated is {@code system:anonymous} in {@code system:unauthenticated} (then authorization
 * decides), on every path or only on {@code paths} ({@code --authentication-config}'s conditions);
 * when anonymous requests are off ({@code --anonymous-auth=false}) it is 401.
 *
 * @param enabled whether anonymous requests are allowed
 * @param paths the only paths they are allowed on; empty for every path
 */
public record AnonymousAuthenticator(boolean enabled, List<String> paths) implements Authenticator {

    public AnonymousAuthenticator {
        paths = List.copyOf(paths);
    }

    @Override
    public Optional<UserInfo> authenticate(RestRequest request, List<X509Certificate> clientCertificates) {
        if (enabled && (paths.isEmpty() || paths.contains(request.path()))) {
            return Optional.of(UserInfo.ANONYMOUS);
        }
        throw ApiException.unauthorized();
    }
}
