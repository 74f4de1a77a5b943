package io.kapi.authn;

import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.user.UserInfo;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The bearer-token authenticator: the token of {@code Authorization: Bearer <token>}, or of a WebSocket
 * subprotocol {@code base64url.bearer.authorization.k8s.io.<token in base64url>} (browsers cannot set
 * headers on a WebSocket), is given to the token authenticators. A request with a token nobody accepts
 * is 401 Unauthorized, even where anonymous requests are allowed, as in kube-apiserver.
 */
public record BearerTokens(TokenAuthenticator tokens) implements Authenticator {

    private static final String WEBSOCKET_PREFIX = "base64url.bearer.authorization.k8s.io.";

    @Override
    public Optional<UserInfo> authenticate(RestRequest request, List<X509Certificate> clientCertificates) {
        String token = token(request);
        if (token == null) {
            return Optional.empty();
        }
        return Optional.of(tokens.authenticate(token, List.of()).orElseThrow(ApiException::unauthorized).user());
    }

    /** The request's bearer token, or null. */
    static String token(RestRequest request) {
        String header = request.header("Authorization");
        if (header != null) {
            String trimmed = header.trim();
            int space = trimmed.indexOf(' ');
            if (space > 0 && trimmed.substring(0, space).equalsIgnoreCase("bearer")) {
                String token = trimmed.substring(space + 1).trim();
                return token.isEmpty() ? null : token;
            }
            return null;
        }
        String protocols = request.header("Sec-WebSocket-Protocol");
        if (protocols != null) {
            for (String protocol : protocols.split(",")) {
                String p = protocol.trim();
                if (p.startsWith(WEBSOCKET_PREFIX)) {
                    try {
                        String token = new String(Base64.getUrlDecoder().decode(p.substring(WEBSOCKET_PREFIX.length())),
                                StandardCharsets.UTF_8);
                        return token.isEmpty() ? null : token;
                    } catch (IllegalArgumentException e) {
                        throw ApiException.unauthorized();
                    }
                }
            }
        }
        return null;
    }
}
