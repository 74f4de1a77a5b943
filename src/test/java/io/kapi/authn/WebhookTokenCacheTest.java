package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersionResource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --authentication-token-webhook-cache-ttl} with a real webhook on loopback HTTPS: the webhook's
 * answers, accepted or refused, are remembered for the TTL beneath kube's overall 10 s token cache (which
 * remembers only successes), so the webhook is asked again only once its TTL has passed.
 */
final class WebhookTokenCacheTest {

    private static TestTokenWebhook webhook;
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        webhook = new TestTokenWebhook();
    }

    @AfterAll
    static void stop() {
        webhook.close();
    }

    private static final ObjectLookup NOTHING = new ObjectLookup() {
        @Override
        public Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name) {
            return Optional.empty();
        }

        @Override
        public List<ObjectNode> list(GroupVersionResource resource, String namespace) {
            return List.of();
        }
    };

    private static TokenAuthenticator tokens(Duration ttl, Clock clock) throws Exception {
        AuthenticationConfig config = AuthenticationConfig.DEFAULT.withWebhook(webhook.kubeconfig(dir), ttl, "v1");
        return Authentications.build(config, List.of("RBAC"), List.of(), List.of("https://kubernetes.default.svc"),
                NOTHING, LegacyTokenUse.NONE, clock).tokens();
    }

    private static void assertReviews(int expected, int base, String why) {
        assertEquals(expected, webhook.reviews() - base, why);
    }

    @Test
    @DisplayName("an accepted token is asked again only after the webhook cache TTL, not after the 10 s cache")
    void acceptedCachedForTtl() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        TokenAuthenticator tokens = tokens(Duration.ofSeconds(30), clock);
        int base = webhook.reviews();
        assertEquals("alice", tokens.authenticate("wh-alice", List.of()).orElseThrow().user().name());
        assertReviews(1, base, "first use asks the webhook");
        clock.advance(Duration.ofSeconds(15));
        assertTrue(tokens.authenticate("wh-alice", List.of()).isPresent());
        assertReviews(1, base, "past the 10 s cache, within the webhook's 30 s");
        clock.advance(Duration.ofSeconds(16));
        assertTrue(tokens.authenticate("wh-alice", List.of()).isPresent());
        assertReviews(2, base, "past the webhook's TTL");
    }

    @Test
    @DisplayName("a refused token is remembered for the TTL too; a TTL of 0 asks every time")
    void refusedAndZero() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        TokenAuthenticator cached = tokens(Duration.ofMinutes(2), clock);
        int base = webhook.reviews();
        assertTrue(cached.authenticate("not-webhook", List.of()).isEmpty());
        assertTrue(cached.authenticate("not-webhook", List.of()).isEmpty());
        assertReviews(1, base, "the refusal is cached");
        TokenAuthenticator uncached = tokens(Duration.ZERO, clock);
        base = webhook.reviews();
        assertTrue(uncached.authenticate("not-webhook", List.of()).isEmpty());
        assertTrue(uncached.authenticate("not-webhook", List.of()).isEmpty());
        assertReviews(2, base, "no webhook cache, and kube caches no failures");
        assertTrue(uncached.authenticate("wh-bob", List.of()).isPresent());
        clock.advance(Duration.ofSeconds(11));
        assertTrue(uncached.authenticate("wh-bob", List.of()).isPresent());
        assertReviews(4, base, "only the overall 10 s cache");
    }

    /** A clock the test moves. */
    static final class ManualClock extends Clock {
        private volatile Instant now;

        ManualClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
