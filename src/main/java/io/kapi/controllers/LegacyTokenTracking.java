package io.kapi.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.authn.LegacyTokenUse;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * kube-apiserver's tracking of legacy service-account tokens: when one is used, its Secret gets the label
 * {@value #LAST_USED} with today's UTC date ({@code 2006-01-02}), unless it already says today or
 * tomorrow (a clock a little ahead elsewhere), by a merge patch as the API server itself. A failed
 * patch is logged and does not affect the authentication. Does nothing until {@link #bind} gives it the
 * server's client (the authenticators are built before it).
 */
public final class LegacyTokenTracking implements LegacyTokenUse {

    /** The label holding the day a legacy token was last used. */
    public static final String LAST_USED = "kubernetes.io/legacy-token-last-used";
    /** The label kube-controller-manager's cleaner sets on unused tokens; such a token is refused. */
    public static final String INVALID_SINCE = "kubernetes.io/legacy-token-invalid-since";
    private static final System.Logger LOG = System.getLogger(LegacyTokenTracking.class.getName());

    private final Clock clock;
    private final AtomicReference<ResourceClient> secrets = new AtomicReference<>();

    public LegacyTokenTracking(Clock clock) {
        this.clock = clock;
    }

    /** Starts tracking with {@code apiserver}'s identity. */
    public void bind(LocalClient apiserver) {
        secrets.set(apiserver.resource("", "v1", "secrets"));
    }

    @Override
    public void used(ObjectNode secret) {
        ResourceClient client = secrets.get();
        if (client == null) {
            return;
        }
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        ObjectMeta meta = ObjectMeta.of(secret);
        String lastUsed = secret.path("metadata").path("labels").path(LAST_USED).asText("");
        if (lastUsed.equals(today.toString()) || lastUsed.equals(today.plusDays(1).toString())) {
            return;
        }
        ObjectNode patch = Json.object();
        ObjectNode metadata = patch.putObject("metadata");
        metadata.put("uid", meta.uid());
        metadata.putObject("labels").put(LAST_USED, today.toString());
        try {
            client.mergePatch(meta.namespace(), meta.name(), patch);
        } catch (ApiException | IllegalStateException e) {
            LOG.log(System.Logger.Level.WARNING, "Failed to label legacy service account token {0}/{1} with "
                    + "last-used date: {2}", meta.namespace(), meta.name(), e.getMessage());
        }
    }
}
