package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A service-account token lives only as long as what it was issued for, as kube's validators check it
 * ({@code --service-account-lookup}, the default): the account with the token's uid, the pod, secret or
 * node it is bound to with theirs, and a legacy token's Secret holding it. Asked through the server's whole
 * token chain, right after the token was accepted: revocation is immediate, no cache keeps it valid.
 */
@DisplayName("service-account tokens are refused at once when what they stand for is gone")
final class ServiceAccountTokenRevocationTest {

    private static final KeyPair KEY = TokenFixtures.ecKey();

    private TokenFixtures.Objects objects;
    private TokenFixtures.SettableClock clock;

    @BeforeEach
    void setUp() {
        objects = new TokenFixtures.Objects();
        clock = new TokenFixtures.SettableClock(Instant.parse("2025-06-01T12:00:00Z"));
        objects.put("serviceaccounts", "default", "robot", "robot-uid");
    }

    /** The server's token chain (TokenReview's, and the bearer-token authenticator's), lookup as given. */
    private TokenAuthenticator tokens(boolean lookup) {
        AuthenticationConfig.ServiceAccounts sa = AuthenticationConfig.ServiceAccounts.DEFAULT;
        AuthenticationConfig config = AuthenticationConfig.DEFAULT.withServiceAccounts(new AuthenticationConfig
                .ServiceAccounts(sa.keyFiles(), sa.signingKeyFile(), sa.issuers(), sa.apiAudiences(), lookup,
                sa.maxTokenExpiration()));
        return Authentications.build(config, List.of("Node", "RBAC"), List.of(KEY.getPublic()),
                List.of(TokenFixtures.ISSUER), objects, LegacyTokenUse.NONE, clock).tokens();
    }

    private ObjectNode claims() {
        return TokenFixtures.boundClaims(clock.instant(), TokenFixtures.ISSUER, "default", "robot", "robot-uid");
    }

    private static Optional<String> user(TokenAuthenticator tokens, String token) {
        return tokens.authenticate(token, List.of()).map(a -> a.user().name());
    }

    private static void assertAccepted(TokenAuthenticator tokens, String token, String what) {
        assertEquals(Optional.of("system:serviceaccount:default:robot"), user(tokens, token), what);
    }

    private static void assertRefused(TokenAuthenticator tokens, String token, String what) {
        assertTrue(user(tokens, token).isEmpty(), what);
    }

    @Test
    @DisplayName("the account deleted, or deleted and created again with a new uid: refused on the next request")
    void accountGone() {
        TokenAuthenticator tokens = tokens(true);
        String token = TokenFixtures.sign(KEY, claims());
        assertAccepted(tokens, token, "issued for the account");
        objects.delete("serviceaccounts", "default", "robot");
        assertRefused(tokens, token, "account deleted");
        objects.put("serviceaccounts", "default", "robot", "robot-uid-2");
        assertRefused(tokens, token, "account of that name created again");
    }

    @Test
    @DisplayName("a pod-bound token: refused once the pod is gone or replaced; a deleting pod may call for 60 s")
    void boundToPod() {
        objects.put("pods", "default", "web", "pod-uid");
        objects.put("nodes", "", "n1", "node-uid");
        ObjectNode claims = claims();
        claims.withObjectProperty("kubernetes.io").putObject("pod").put("name", "web").put("uid", "pod-uid");
        claims.withObjectProperty("kubernetes.io").putObject("node").put("name", "n1").put("uid", "node-uid");
        String token = TokenFixtures.sign(KEY, claims);
        TokenAuthenticator tokens = tokens(true);
        assertAccepted(tokens, token, "pod there");
        objects.delete("nodes", "", "n1");
        assertAccepted(tokens, token, "a pod-bound token's node is information only");
        ObjectNode pod = objects.put("pods", "default", "web", "pod-uid");
        pod.withObjectProperty("metadata").put("deletionTimestamp", "2025-06-01T12:00:30Z");
        assertAccepted(tokens, token, "in its grace period");
        clock.now = Instant.parse("2025-06-01T12:01:29Z");
        assertAccepted(tokens, token, "within 60 s of its deletion time");
        clock.now = Instant.parse("2025-06-01T12:01:31Z");
        assertRefused(tokens, token, "more than 60 s past its deletion time");
        objects.delete("pods", "default", "web");
        assertRefused(tokens, token, "pod deleted");
        objects.put("pods", "default", "web", "pod-uid-2");
        assertRefused(tokens, token, "a pod of that name with another uid");
    }

    @Test
    @DisplayName("secret- and node-bound tokens: refused once the object is gone or has another uid; also without "
            + "--service-account-lookup, which is for legacy tokens only")
    void boundToSecretAndNode() {
        for (boolean lookup : List.of(true, false)) {
            objects.put("secrets", "default", "s", "secret-uid");
            objects.put("nodes", "", "n1", "node-uid");
            ObjectNode bySecret = claims();
            bySecret.withObjectProperty("kubernetes.io").putObject("secret").put("name", "s").put("uid", "secret-uid");
            ObjectNode byNode = claims();
            byNode.withObjectProperty("kubernetes.io").putObject("node").put("name", "n1").put("uid", "node-uid");
            String secretToken = TokenFixtures.sign(KEY, bySecret);
            String nodeToken = TokenFixtures.sign(KEY, byNode);
            TokenAuthenticator tokens = tokens(lookup);
            assertAccepted(tokens, secretToken, "secret there, lookup " + lookup);
            assertAccepted(tokens, nodeToken, "node there, lookup " + lookup);
            objects.put("secrets", "default", "s", "secret-uid-2");
            objects.put("nodes", "", "n1", "node-uid-2");
            assertRefused(tokens, secretToken, "secret of another uid, lookup " + lookup);
            assertRefused(tokens, nodeToken, "node of another uid, lookup " + lookup);
            objects.delete("secrets", "default", "s");
            objects.delete("nodes", "", "n1");
            assertRefused(tokens, secretToken, "secret deleted, lookup " + lookup);
            assertRefused(tokens, nodeToken, "node deleted, lookup " + lookup);
        }
    }

    @Test
    @DisplayName("a bound token whose claims name no uid matches no object")
    void claimWithoutUid() {
        ObjectNode claims = claims();
        claims.withObjectProperty("kubernetes.io").withObjectProperty("serviceaccount").remove("uid");
        assertRefused(tokens(true), TokenFixtures.sign(KEY, claims), "account claim without uid");
    }

    @Test
    @DisplayName("a legacy token: refused once its Secret is deleted, replaced by one not the account's token "
            + "Secret, or its account is deleting or has another uid")
    void legacy() {
        String token = TokenFixtures.sign(KEY, TokenFixtures.legacyClaims("default", "robot", "robot-uid", "robot-token"));
        tokenSecret(token, "robot");
        TokenAuthenticator tokens = tokens(true);
        assertAccepted(tokens, token, "secret holds the token");
        objects.delete("secrets", "default", "robot-token");
        assertRefused(tokens, token, "secret deleted");
        ObjectNode opaque = tokenSecret(token, "robot");
        opaque.put("type", "Opaque");
        assertRefused(tokens, token, "the token copied into an Opaque secret of that name");
        tokenSecret(token, "someone-else");
        assertRefused(tokens, token, "a token secret of another account");
        tokenSecret(token, "robot");
        assertAccepted(tokens, token, "the account's token secret again");
        ObjectNode account = objects.put("serviceaccounts", "default", "robot", "robot-uid");
        account.withObjectProperty("metadata").put("deletionTimestamp", "2025-06-01T12:00:00Z");
        assertRefused(tokens, token, "account deleting");
        objects.put("serviceaccounts", "default", "robot", "robot-uid-2");
        assertRefused(tokens, token, "account created again");
        assertAccepted(tokens(false), token, "without lookup a legacy token is its signature");
    }

    private ObjectNode tokenSecret(String token, String account) {
        ObjectNode secret = objects.put("secrets", "default", "robot-token", "secret-uid");
        secret.put("type", "kubernetes.io/service-account-token");
        secret.withObjectProperty("metadata").putObject("annotations")
                .put("kubernetes.io/service-account.name", account).put("kubernetes.io/service-account.uid", "robot-uid");
        secret.putObject("data").put("token", Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)));
        return secret;
    }

    @Test
    @DisplayName("an accepted token is checked again on every request: expiry, then a tampered copy")
    void checkedEveryTime() {
        TokenAuthenticator tokens = tokens(true);
        String token = TokenFixtures.sign(KEY, claims());
        assertAccepted(tokens, token, "fresh");
        ObjectNode other = claims();
        other.withObjectProperty("kubernetes.io").put("namespace", "kube-system");
        assertRefused(tokens, TokenFixtures.tampered(token, other), "its signature on other claims");
        clock.now = clock.now.plus(Duration.ofHours(1)).plusSeconds(61);
        assertRefused(tokens, token, "expired (past the 60 s leeway)");
    }
}
