package io.kapi.server.filter;

import io.kapi.authn.Authenticator;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.metrics.SecurityMetrics;
import io.kapi.tracing.Tracing;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sets the request's user. An authenticated user also gets the group {@code system:authenticated}
 * (as kube-apiserver's group adder does). A request nobody authenticates (the authenticator's own
 * anonymous rule aside, see {@code Authentications}) is answered 401 Unauthorized, except a GET of a
 * {@linkplain PublicPaths public path} that presented no credential, which proceeds as {@code system:anonymous}
 * (a refused credential is the authenticator's 401, on every path). A request made in-process by the server itself arrives with its user
 * already set (the loopback identity) and proceeds as that user.
 */
public record Authentication(Authenticator authenticator, SecurityMetrics metrics) implements Filter {

    static final String AUTHENTICATED = "system:authenticated";

    public Authentication(Authenticator authenticator) {
        this(authenticator, null);
    }

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        if (request.context().user() != null) {
            return chain.proceed(request);
        }
        Optional<UserInfo> user;
        // the request's span starts with authentication
        try (Tracing.Timing timing = Tracing.authenticating(request.rest().headers())) {
            user = authenticate(request);
        }
        if (user.isPresent()) {
            return chain.proceed(request.withContext(request.context().withUser(withAuthenticatedGroup(user.get()))));
        }
        if (PublicPaths.allows(request.rest())) {
            return chain.proceed(request.withContext(request.context().withUser(UserInfo.ANONYMOUS)));
        }
        throw ApiException.unauthorized();
    }

    /**
     * Asks the authenticator, recording the attempt as kube's {@code authentication_attempts} does:
     * {@code success}, {@code failure} (no credential it accepts) or {@code error} (a credential refused).
     */
    private Optional<UserInfo> authenticate(ServerRequest request) {
        if (metrics == null) {
            return authenticator.authenticate(request.rest(), request.clientCertificates());
        }
        long start = System.nanoTime();
        Optional<UserInfo> user;
        try {
            user = authenticator.authenticate(request.rest(), request.clientCertificates());
        } catch (RuntimeException e) {
            metrics.authenticated("error", start, null);
            throw e;
        }
        metrics.authenticated(user.isPresent() ? "success" : "failure", start, user.map(UserInfo::name).orElse(null));
        return user;
    }

    /** Adds {@code system:authenticated}, except to an anonymous user (in {@code system:unauthenticated}). */
    static UserInfo withAuthenticatedGroup(UserInfo user) {
        if (user.groups().contains(AUTHENTICATED) || user.groups().contains("system:unauthenticated")) {
            return user;
        }
        List<String> groups = new ArrayList<>(user.groups());
        groups.add(AUTHENTICATED);
        return new UserInfo(user.name(), user.uid(), groups, user.extra());
    }
}
