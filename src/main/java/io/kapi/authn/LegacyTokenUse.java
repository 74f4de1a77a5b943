package io.kapi.authn;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Told each time a legacy (secret-based) service-account token authenticates, or is refused because its
 * Secret carries {@code kubernetes.io/legacy-token-invalid-since}: kube-apiserver then labels the Secret
 * with the day it was last used. Called on the request's thread; must not throw.
 */
@FunctionalInterface
public interface LegacyTokenUse {

    /** Tracks nothing (tests, and until the server's own client is ready). */
    LegacyTokenUse NONE = secret -> { };

    /** @param secret the Secret holding the token, as read for the authentication */
    void used(ObjectNode secret);
}
