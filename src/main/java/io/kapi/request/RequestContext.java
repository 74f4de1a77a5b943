package io.kapi.request;

import io.kapi.user.UserInfo;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * What every filter, handler and store method knows about the request it serves, built up by the
 * filters in request order: the request info (first filter), the user (authentication), then the
 * write options (dry run, field manager) once the request is authorized. Immutable but for the
 * warnings sink; nothing below the filters parses the request again to learn these.
 *
 * @param info what the request asks for
 * @param user who asks; null until authentication
 * @param auditId the request's audit ID (also sent back as {@code Audit-Id})
 * @param deadline when a request that is not long-running must be answered; null for none
 * @param dryRun whether {@code dryRun=All} was asked for
 * @param fieldManager the {@code fieldManager} parameter, or null
 * @param fieldValidation the {@code fieldValidation} parameter, or null
 * @param userAgent the {@code User-Agent} header, or ""
 * @param warnings where warnings for the client are collected
 * @param excluded the time spent on what the SLI latency leaves out (webhooks, the flow-control queue)
 */
public record RequestContext(RequestInfo info, UserInfo user, String auditId, Instant deadline, boolean dryRun,
                             String fieldManager, String fieldValidation, String userAgent, WarningSink warnings,
                             ExcludedLatency excluded) {

    public RequestContext {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(auditId, "auditId");
        Objects.requireNonNull(warnings, "warnings");
        Objects.requireNonNull(excluded, "excluded");
        userAgent = userAgent == null ? "" : userAgent;
    }

    /** A fresh context for {@code info}, before authentication. */
    public static RequestContext of(RequestInfo info, String auditId, Instant deadline, String userAgent) {
        return new RequestContext(info, null, auditId == null || auditId.isEmpty() ? newAuditId() : auditId,
                deadline, false, null, null, userAgent, new WarningSink(), new ExcludedLatency());
    }

    /**
     * The context of a write the server makes directly on a store as {@code user} (allocators
     * recording IP addresses): no HTTP request behind it, so no deadline and no warnings for anyone.
     */
    public static RequestContext internal(UserInfo user, Verb verb) {
        RequestInfo info = new RequestInfo(true, "", verb, "", "", "", "", "", "", "");
        return new RequestContext(info, user, newAuditId(), null, false, null, null, "kapi", new WarningSink(),
                new ExcludedLatency());
    }

    /**
     * A random (version 4) UUID for an audit ID. Unique, not secret: drawn from the thread's random
     * generator, not the shared secure one every request would contend on.
     */
    static String newAuditId() {
        java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
        long high = (r.nextLong() & ~0xF000L) | 0x4000L;
        long low = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }

    public RequestContext withUser(UserInfo newUser) {
        return new RequestContext(info, newUser, auditId, deadline, dryRun, fieldManager, fieldValidation, userAgent,
                warnings, excluded);
    }

    public RequestContext withWriteOptions(boolean newDryRun, String newFieldManager, String newFieldValidation) {
        return new RequestContext(info, user, auditId, deadline, newDryRun, newFieldManager, newFieldValidation,
                userAgent, warnings, excluded);
    }

    public RequestContext withInfo(RequestInfo newInfo) {
        return new RequestContext(newInfo, user, auditId, deadline, dryRun, fieldManager, fieldValidation, userAgent,
                warnings, excluded);
    }

    /** Whether the deadline has passed (never, for requests without one). */
    public boolean expired() {
        return deadline != null && Instant.now().isAfter(deadline);
    }
}
