package io.kapi.authz;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The authorizer chain {@code --authorization-mode} names, in order, as kube-apiserver builds it.
 * Adding a mode is one class and one line in {@link #MODES}. Modes kube-apiserver has and Kapi does
 * not yet are accepted, logged at start, and have no opinion, so the rest of the chain decides;
 * a name kube-apiserver does not know stops the start with its error.
 */
public final class AuthorizationModes {

    private static final System.Logger LOG = System.getLogger(AuthorizationModes.class.getName());

    /** kube-apiserver's mode names; a null factory is a mode Kapi does not implement yet. */
    private static final Map<String, Supplier<Authorizer>> MODES = modes();

    private AuthorizationModes() {
    }

    private static Map<String, Supplier<Authorizer>> modes() {
        Map<String, Supplier<Authorizer>> m = new LinkedHashMap<>();
        m.put("AlwaysAllow", () -> attributes -> Decision.allow());
        m.put("AlwaysDeny", () -> attributes -> new Decision.Deny(""));
        m.put("ABAC", null);
        m.put("Webhook", null);
        m.put("RBAC", null);
        m.put("Node", null);
        return m;
    }

    /**
     * The chain of {@code modes}.
     *
     * @throws IllegalArgumentException for an unknown or repeated mode, with kube-apiserver's wording
     */
    public static Authorizer chain(List<String> modes) {
        List<Authorizer> authorizers = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String mode : modes) {
            if (!MODES.containsKey(mode)) {
                throw new IllegalArgumentException("authorization-mode \"%s\" is not a valid mode".formatted(mode));
            }
            if (seen.contains(mode)) {
                throw new IllegalArgumentException("authorization-mode %s has mode specified more than once"
                        .formatted(String.join(",", modes)));
            }
            seen.add(mode);
            Supplier<Authorizer> factory = MODES.get(mode);
            if (factory == null) {
                missing.add(mode);
            } else {
                authorizers.add(factory.get());
            }
        }
        if (!missing.isEmpty()) {
            LOG.log(Level.WARNING, "Authorization modes {0} are not implemented by Kapi yet; they have no opinion",
                    String.join(",", missing));
            if (authorizers.isEmpty()) {
                LOG.log(Level.WARNING, "No implemented authorization mode: every authenticated request is allowed");
                authorizers.add(MODES.get("AlwaysAllow").get());
            }
        }
        return Authorizer.chain(authorizers);
    }
}
