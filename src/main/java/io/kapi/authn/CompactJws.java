package io.kapi.authn;

/**
 * Whether a bearer token is a JWS in compact serialization as Go's go-jose reads one: three segments of
 * unpadded base64url ({@code base64.RawURLEncoding}), none with a character outside that alphabet or of a
 * length no byte string encodes to. Nimbus's parser skips characters outside the alphabet, so a token with one
 * inserted (e.g. a {@code !} in its signature) would decode to the original and verify; kube-apiserver refuses it.
 */
final class CompactJws {

    private CompactJws() {
    }

    static boolean isCompact(String token) {
        int segments = 1;
        int length = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '.') {
                if (length % 4 == 1) {
                    return false;
                }
                segments++;
                length = 0;
            } else if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
                length++;
            } else {
                return false;
            }
        }
        return segments == 3 && length % 4 != 1;
    }
}
