package io.kapi.authn;

import java.util.List;
import java.util.Optional;

/**
 * kube's {@code WrapAudienceAgnosticToken}: a token authenticator that knows nothing of audiences (a
 * static token, a bootstrap token, an OIDC ID token, a legacy service-account token) is valid for the
 * API server's own audiences ({@code --api-audiences}, by default the service-account issuers) only: it is
 * asked only when the audiences wanted (none: the API's own) meet those, and its answer carries the
 * audiences they share, which a TokenReview reports in {@code status.audiences}.
 *
 * @param implicit the API server's audiences
 */
public record AudienceAgnostic(List<String> implicit, TokenAuthenticator delegate) implements TokenAuthenticator {

    public AudienceAgnostic {
        implicit = List.copyOf(implicit);
    }

    @Override
    public Optional<Accepted> authenticate(String token, List<String> audiences) {
        List<String> shared = shared(implicit, audiences);
        if (shared.isEmpty()) {
            return Optional.empty();
        }
        return delegate.authenticate(token, audiences).map(a -> new Accepted(a.user(), shared));
    }

    /** The audiences of {@code implicit} among those {@code wanted} (none wanted: all of {@code implicit}). */
    static List<String> shared(List<String> implicit, List<String> wanted) {
        return wanted.isEmpty() ? implicit : implicit.stream().filter(wanted::contains).toList();
    }
}
