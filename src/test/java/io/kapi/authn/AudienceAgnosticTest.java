package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.user.UserInfo;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** kube's audience-agnostic wrapping: such tokens are for the API's audiences only, and say so. */
final class AudienceAgnosticTest {

    private static final List<String> API = List.of("https://kubernetes.default.svc", "api");

    @Test
    @DisplayName("no audience wanted: the API's; some wanted: those of the API's among them; none shared: not asked")
    void audiences() {
        AtomicInteger asked = new AtomicInteger();
        TokenAuthenticator agnostic = new AudienceAgnostic(API, (token, audiences) -> {
            asked.incrementAndGet();
            return TokenAuthenticator.Accepted.of(new UserInfo("alice", "", List.of()));
        });
        assertEquals(API, agnostic.authenticate("t", List.of()).orElseThrow().audiences());
        assertEquals(List.of("api"), agnostic.authenticate("t", List.of("vault", "api")).orElseThrow().audiences());
        assertEquals(Optional.empty(), agnostic.authenticate("t", List.of("vault")));
        assertEquals(2, asked.get(), "the delegate is not asked for a token meant for others");
        assertTrue(new AudienceAgnostic(API, (token, audiences) -> Optional.empty())
                .authenticate("t", List.of()).isEmpty());
    }
}
