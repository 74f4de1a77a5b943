package io.kapi.e2e.fuzz;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Base64;
import java.util.Map;
import java.util.Random;

/**
 * Bearer tokens that must fail, and so be {@code 401} even on the public paths anonymous may read (kube's
 * union authenticator fails on error; anonymous is only for a request without a credential): a valid
 * service-account token with a character changed, a character inserted that base64url does not have, its
 * signature dropped or truncated, {@code alg: none}, claims rewritten under the old signature, a token signed
 * by another key, extra segments, long garbage, and near misses of a static token. Controls must stay
 * {@code 200}: the token itself, and its {@code bearer} scheme in lower case (kube compares it without case).
 */
final class ForgedTokens implements Family {

    private static final String B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    private static final String NOT_B64URL = "!+/=~*%$#@&(),;:'\"";
    private static final String[] PATHS = {"/version", "/healthz", "/api", "/api/v1/namespaces/default/configmaps"};
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    @Override
    public void run(Target target, Random random, int count, Tally tally) throws Exception {
        target.admin("POST", "/api/v1/namespaces/default/serviceaccounts", "{\"metadata\":{\"name\":\"forger\"}}");
        String good = target.admin("POST", "/api/v1/namespaces/default/serviceaccounts/forger/token",
                "{\"spec\":{\"expirationSeconds\":3600}}").json().path("status").path("token").asText();
        String elsewhere = foreignSigned(good);
        for (int i = 0; i < count; i++) {
            String path = PATHS[random.nextInt(PATHS.length)];
            int kind = random.nextInt(12);
            if (kind == 0) { // controls, on public paths (what the account may do otherwise is RBAC's)
                path = PATHS[random.nextInt(3)];
                boolean lower = random.nextBoolean();
                Target.Answer a = target.as(null, "GET", path, Map.of("Authorization",
                        (lower ? "bearer " : "Bearer ") + good), null);
                tally.expect("200", a, "control (" + (lower ? "lower-case scheme" : "as issued") + ") "
                        + path);
                continue;
            }
            String forged = switch (kind) {
                case 1 -> changed(good, random);
                case 2 -> inserted(good, random);
                case 3 -> part(good, 0) + "." + part(good, 1) + ".";
                case 4 -> good.substring(0, Math.max(1, good.length() - 1 - random.nextInt(good.length() - 1)));
                case 5 -> ENCODER.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
                        + "." + part(good, 1) + (random.nextBoolean() ? "." : "");
                case 6 -> rewritten(good, random);
                case 7 -> elsewhere;
                case 8 -> good + "." + part(good, 2);
                case 9 -> garbage(random);
                case 10 -> switch (random.nextInt(4)) { // near misses of a static token
                    case 0 -> RbacEscalation.TOKEN.toUpperCase(java.util.Locale.ROOT);
                    case 1 -> RbacEscalation.TOKEN + "x";
                    case 2 -> RbacEscalation.TOKEN.substring(1);
                    default -> RbacEscalation.TOKEN + NOT_B64URL.charAt(random.nextInt(NOT_B64URL.length()));
                };
                default -> part(good, random.nextInt(3)); // one segment alone
            };
            Target.Answer a = target.as(forged, "GET", path, Map.of(), null);
            tally.expect("401", a, "forged #" + kind + " " + path + " " + forged);
        }
    }

    private static String part(String jwt, int i) {
        return jwt.split("\\.", -1)[i];
    }

    /** One character of a segment, not its last (whose spare bits base64 may ignore), made another. */
    private static String changed(String jwt, Random random) {
        String[] parts = jwt.split("\\.", -1);
        int p = random.nextInt(3);
        StringBuilder s = new StringBuilder(parts[p]);
        int at = random.nextInt(s.length() - 1);
        char was = s.charAt(at);
        char now;
        do {
            now = B64URL.charAt(random.nextInt(B64URL.length()));
        } while (now == was);
        s.setCharAt(at, now);
        parts[p] = s.toString();
        return String.join(".", parts);
    }

    /** A character base64url does not have, inserted anywhere but at the ends. */
    private static String inserted(String jwt, Random random) {
        int at = 1 + random.nextInt(jwt.length() - 1);
        return jwt.substring(0, at) + NOT_B64URL.charAt(random.nextInt(NOT_B64URL.length())) + jwt.substring(at);
    }

    /** The claims rewritten (a subject, expiry, audience, issuer or namespace), the signature left as it was. */
    private static String rewritten(String jwt, Random random) {
        ObjectNode claims = (ObjectNode) read(part(jwt, 1));
        long now = System.currentTimeMillis() / 1000;
        switch (random.nextInt(5)) {
            case 0 -> claims.put("sub", "system:serviceaccount:kube-system:clusterrole-aggregation-controller");
            case 1 -> claims.put("exp", now + 10 * 365 * 86400L);
            case 2 -> claims.putArray("aud").add("https://vault.example.com");
            case 3 -> claims.put("iss", "https://evil.example.com");
            default -> ((ObjectNode) claims.path("kubernetes.io")).put("namespace", "kube-system");
        }
        return part(jwt, 0) + "." + ENCODER.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8)) + "."
                + part(jwt, 2);
    }

    /** The same header and claims, signed RS256 by a key the server never saw. */
    private static String foreignSigned(String jwt) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        ObjectNode header = (ObjectNode) read(part(jwt, 0));
        header.put("alg", "RS256");
        String input = ENCODER.encodeToString(header.toString().getBytes(StandardCharsets.UTF_8)) + "." + part(jwt, 1);
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(generator.generateKeyPair().getPrivate());
        rsa.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + ENCODER.encodeToString(rsa.sign());
    }

    private static String garbage(Random random) {
        StringBuilder s = new StringBuilder();
        int length = 1 + random.nextInt(4000);
        for (int i = 0; i < length; i++) {
            s.append(random.nextInt(60) == 0 ? '.' : B64URL.charAt(random.nextInt(B64URL.length())));
        }
        return s.toString();
    }

    private static com.fasterxml.jackson.databind.JsonNode read(String segment) {
        try {
            return Json.MAPPER.readTree(Base64.getUrlDecoder().decode(segment));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
