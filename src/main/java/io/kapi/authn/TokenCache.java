package io.kapi.authn;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers token authentications, as kube's {@code tokencache}: an accepted token for
 * {@code successTtl}, a refused one for {@code failureTtl} (zero: not at all). So a revoked credential
 * keeps working for at most {@code successTtl}: Kapi puts only the authenticators whose credentials are
 * revoked outside the API (OIDC issuers, the token webhook) behind it, never those the API revokes
 * (service-account and bootstrap tokens, whose answers kube caches for 10 s, are checked on every request).
 * Keys are SHA-256 digests of the token and audiences, never the token itself; at most
 * {@value #MAX_ENTRIES} entries (all dropped when full, so a flood of random tokens cannot grow it).
 */
public final class TokenCache implements TokenAuthenticator {

    static final int MAX_ENTRIES = 8192;

    private final TokenAuthenticator delegate;
    private final Duration successTtl;
    private final Duration failureTtl;
    private final Clock clock;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    public TokenCache(TokenAuthenticator delegate, Duration successTtl, Duration failureTtl, Clock clock) {
        this.delegate = delegate;
        this.successTtl = successTtl;
        this.failureTtl = failureTtl;
        this.clock = clock;
    }

    @Override
    public Optional<Accepted> authenticate(String token, List<String> audiences) {
        String key = digest(token, audiences);
        Instant now = clock.instant();
        Entry cached = entries.get(key);
        if (cached != null && now.isBefore(cached.until())) {
            return cached.result();
        }
        Optional<Accepted> result = delegate.authenticate(token, audiences);
        Duration ttl = result.isPresent() ? successTtl : failureTtl;
        if (ttl.isPositive()) {
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
            entries.put(key, new Entry(result, now.plus(ttl)));
        }
        return result;
    }

    /** The SHA-256 of the token and the audiences, in hex: a key that does not hold the token. */
    static String digest(String token, List<String> audiences) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(token.getBytes(StandardCharsets.UTF_8));
            for (String audience : audiences) {
                sha.update((byte) 0);
                sha.update(audience.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Entry(Optional<Accepted> result, Instant until) {
    }
}
