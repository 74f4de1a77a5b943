package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A token is a JWS only in go-jose's strict compact form: a valid service-account token with one character that
 * base64url does not have inserted anywhere is refused by the server's token chain (found by the fuzzer's
 * forged-tokens family: Nimbus's decoder skipped the character, and the token verified).
 */
@DisplayName("a JWT with a character outside base64url is refused")
final class CompactJwsTest {

    private static final KeyPair KEY = TokenFixtures.ecKey();

    @Test
    @DisplayName("inserted anywhere in any segment, each character outside the alphabet makes the token refused")
    void insertedCharacters() {
        TokenFixtures.Objects objects = new TokenFixtures.Objects();
        objects.put("serviceaccounts", "default", "robot", "robot-uid");
        TokenFixtures.SettableClock clock = new TokenFixtures.SettableClock(Instant.parse("2025-06-01T12:00:00Z"));
        TokenAuthenticator tokens = Authentications.build(AuthenticationConfig.DEFAULT, List.of("Node", "RBAC"),
                List.of(KEY.getPublic()), List.of(TokenFixtures.ISSUER), objects, LegacyTokenUse.NONE, clock).tokens();
        String token = TokenFixtures.sign(KEY, TokenFixtures.boundClaims(clock.instant(), TokenFixtures.ISSUER,
                "default", "robot", "robot-uid"));
        assertEquals(Optional.of("system:serviceaccount:default:robot"), user(tokens, token), "the token as issued");
        int signature = token.lastIndexOf('.') + 1;
        for (int at : List.of(1, token.indexOf('.') + 1, signature, signature + 5, token.length())) {
            for (char c : "!+/=~*%".toCharArray()) {
                String forged = token.substring(0, at) + c + token.substring(at);
                assertEquals(Optional.empty(), user(tokens, forged), "'" + c + "' inserted at " + at);
            }
        }
    }

    @Test
    @DisplayName("three segments of base64url, none of a length no byte string encodes to")
    void shape() {
        assertTrue(CompactJws.isCompact("eyJh.eyJi.c2ln"));
        assertTrue(CompactJws.isCompact("eyJh.eyJi."), "an empty signature is a JWS's shape (refused as unsigned)");
        assertFalse(CompactJws.isCompact("eyJh.eyJi"));
        assertFalse(CompactJws.isCompact("eyJh.eyJi.c2ln.eHg"));
        assertFalse(CompactJws.isCompact("eyJh.eyJi.c2lnA"), "a segment of 4n+1 characters");
        assertFalse(CompactJws.isCompact("eyJh.ey Ji.c2ln"));
        assertFalse(CompactJws.isCompact("eyJh.eyJi.c2l=n"));
    }

    private static Optional<String> user(TokenAuthenticator tokens, String token) {
        return tokens.authenticate(token, List.of()).map(a -> a.user().name());
    }
}
