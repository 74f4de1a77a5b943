package io.kapi.authn;

import io.kapi.user.UserInfo;
import java.util.List;
import java.util.Optional;

/**
 * Tells who a bearer token belongs to, as kube's {@code authenticator.Token}: what the bearer-token
 * authenticator and {@code TokenReview} ask. Answers empty for a token it does not accept (not its
 * kind, or its kind but invalid, expired or revoked): the caller cannot tell which, and neither can the
 * client. Implementations never log the token.
 */
@FunctionalInterface
public interface TokenAuthenticator {

    /**
     * @param audiences the audiences the caller accepts (a TokenReview's {@code spec.audiences}); empty
     *                  means the API server's own ({@code --api-audiences})
     * @return the user, with the audiences the token was accepted for (see {@link Accepted})
     */
    Optional<Accepted> authenticate(String token, List<String> audiences);

    /** A token's user and the audiences it is valid for (empty when the authenticator is not audience-aware). */
    record Accepted(UserInfo user, List<String> audiences) {

        public Accepted {
            audiences = List.copyOf(audiences);
        }

        static Optional<Accepted> of(UserInfo user) {
            return Optional.of(new Accepted(user, List.of()));
        }
    }

    /** Asks each in turn; the first that accepts the token decides. */
    static TokenAuthenticator union(List<TokenAuthenticator> authenticators) {
        List<TokenAuthenticator> copy = List.copyOf(authenticators);
        return (token, audiences) -> {
            for (TokenAuthenticator a : copy) {
                Optional<Accepted> accepted = a.authenticate(token, audiences);
                if (accepted.isPresent()) {
                    return accepted;
                }
            }
            return Optional.empty();
        };
    }
}
