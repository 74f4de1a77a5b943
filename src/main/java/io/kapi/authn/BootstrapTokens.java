package io.kapi.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.user.UserInfo;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code --enable-bootstrap-token-auth}: tokens {@code <id>.<secret>} backed by a Secret
 * {@code kube-system/bootstrap-token-<id>} of type {@code bootstrap.kubernetes.io/token}, as kube's
 * bootstrap token authenticator reads it: {@code token-secret} must match, {@code
 * usage-bootstrap-authentication} be {@code true}, {@code expiration} (if any) in the future, the secret
 * not being deleted (read on every request, so deleting it revokes the token at once). The user is {@code system:bootstrap:<id>} in {@code system:bootstrappers} and the
 * {@code auth-extra-groups} (each {@code system:bootstrappers:*}).
 */
public record BootstrapTokens(ObjectLookup objects, Clock clock) implements TokenAuthenticator {

    static final Pattern TOKEN = Pattern.compile("([a-z0-9]{6})\\.([a-z0-9]{16})");
    private static final Pattern EXTRA_GROUP = Pattern.compile("system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]");
    private static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1", "secrets");
    private static final System.Logger LOG = System.getLogger(BootstrapTokens.class.getName());

    @Override
    public Optional<Accepted> authenticate(String token, List<String> audiences) {
        var m = TOKEN.matcher(token);
        if (!m.matches()) {
            return Optional.empty();
        }
        String id = m.group(1);
        Optional<ObjectNode> found = objects.cachedOrStored(SECRETS, "kube-system", "bootstrap-token-" + id);
        if (found.isEmpty()) {
            LOG.log(System.Logger.Level.DEBUG, "no secret for bootstrap token {0}", id);
            return Optional.empty();
        }
        ObjectNode secret = found.get();
        JsonNode data = secret.path("data");
        if (!secret.path("type").asText().equals("bootstrap.kubernetes.io/token")
                || !secret.path("metadata").path("deletionTimestamp").isMissingNode()
                || !data(data, "token-id").equals(id)
                || !TokenFile.sameSecret(data(data, "token-secret"), m.group(2))
                || !data(data, "usage-bootstrap-authentication").equals("true")
                || expired(data(data, "expiration"))) {
            LOG.log(System.Logger.Level.DEBUG, "bootstrap token {0} refused", id);
            return Optional.empty();
        }
        List<String> groups = new ArrayList<>(List.of("system:bootstrappers"));
        String extra = data(data, "auth-extra-groups");
        for (String g : extra.isEmpty() ? new String[0] : extra.split(",")) {
            String group = g.trim();
            if (!EXTRA_GROUP.matcher(group).matches()) {
                LOG.log(System.Logger.Level.DEBUG, "bootstrap token {0} has an invalid extra group", id);
                return Optional.empty();
            }
            groups.add(group);
        }
        return Accepted.of(new UserInfo("system:bootstrap:" + id, "", groups));
    }

    private boolean expired(String expiration) {
        if (expiration.isEmpty()) {
            return false;
        }
        try {
            return !clock.instant().isBefore(Instant.parse(expiration));
        } catch (DateTimeParseException e) {
            return true;
        }
    }

    private static String data(JsonNode data, String key) {
        String value = data.path(key).asText("");
        try {
            return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
