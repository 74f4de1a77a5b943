package io.kapi.e2e.fuzz;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * WebSocket upgrades over HTTP/1.1, as kubectl's exec, attach and port-forward and a watch over WebSocket send
 * them, with their headers broken: missing or wrong versions and keys, protocol lists of every length up to
 * 40,000 characters and of unknown names, the bearer-token subprotocol with garbage, and upgrades to other
 * protocols, on watches and on pods' connect paths. A well-formed watch upgrade must be {@code 101}; nothing
 * may be {@code 5xx} or hang.
 */
final class WebSocketUpgrades implements Family {

    private static final String[] PATHS = {"/api/v1/namespaces/default/configmaps?watch=true",
            "/api/v1/namespaces/default/pods/nope/exec?command=ls&stdout=true",
            "/api/v1/namespaces/default/pods/fz-pb/exec?command=ls&stdout=true&stderr=true",
            "/api/v1/namespaces/default/pods/fz-pb/attach?stdout=true",
            "/api/v1/namespaces/default/pods/fz-pb/portforward?ports=80",
            "/api/v1/namespaces/default/pods/fz-pb/log",
            "/api/v1/watch/namespaces?timeoutSeconds=1",
            "/apis/apps/v1/namespaces/default/deployments?watch=1&resourceVersion=999999999"};
    private static final String[] PROTOCOLS = {"v5.channel.k8s.io", "v4.channel.k8s.io", "v3.channel.k8s.io",
            "channel.k8s.io", "base64.channel.k8s.io", "base64.binary.k8s.io", "portforward.k8s.io",
            "base64url.bearer.authorization.k8s.io.", "base64url.bearer.authorization.k8s.io.!!!", "", ",", " , ,",
            "x\u00e9", "v9.channel.k8s.io"};

    @Override
    public void run(Target target, Random random, int count, Tally tally) throws Exception {
        for (int i = 0; i < count; i++) {
            boolean control = random.nextInt(8) == 0;
            String path = control ? PATHS[0] : PATHS[random.nextInt(PATHS.length)];
            Map<String, String> headers = control ? wellFormed(random) : broken(random);
            Target.Answer a = target.raw("GET", path, headers);
            String what = "GET " + path + " " + shorten(headers);
            if (control) {
                tally.expect("101", a, what + " (well-formed)");
            } else {
                tally.count(a, what);
            }
        }
    }

    private static Map<String, String> wellFormed(Random random) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Connection", "Upgrade");
        h.put("Upgrade", "websocket");
        h.put("Sec-WebSocket-Version", "13");
        h.put("Sec-WebSocket-Key", key(random));
        h.put("Sec-WebSocket-Protocol", random.nextBoolean() ? "v4.channel.k8s.io"
                : ("v5.channel.k8s.io, v4.channel.k8s.io, base64.channel.k8s.io, ").repeat(600)); // 30,000+
        return h;
    }

    private static Map<String, String> broken(Random random) {
        Map<String, String> h = wellFormed(random);
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            switch (random.nextInt(7)) {
                case 0 -> h.put("Sec-WebSocket-Version", new String[]{"8", "14", "abc", "", "13, 8"}[random.nextInt(5)]);
                case 1 -> h.remove("Sec-WebSocket-Key");
                case 2 -> h.put("Sec-WebSocket-Key", random.nextBoolean() ? "not base64 !" : "A".repeat(10_000));
                case 3 -> h.put("Sec-WebSocket-Protocol", protocols(random, 1 + random.nextInt(40_000)));
                case 4 -> h.put("Upgrade", new String[]{"WebSocket", "h2c", "SPDY/3.1", "websocket, h2c", "x"}[
                        random.nextInt(5)]);
                case 5 -> h.put("Connection", new String[]{"keep-alive, Upgrade", "close", "upgrade", ""}[random.nextInt(4)]);
                default -> h.remove("Sec-WebSocket-Protocol");
            }
        }
        return h;
    }

    /** A comma-separated protocol list of about {@code length} characters. */
    private static String protocols(Random random, int length) {
        StringBuilder s = new StringBuilder();
        while (s.length() < length) {
            if (!s.isEmpty()) {
                s.append(random.nextInt(4) == 0 ? "," : ", ");
            }
            String p = PROTOCOLS[random.nextInt(PROTOCOLS.length)];
            s.append(p.endsWith(".") ? p + Base64.getUrlEncoder().withoutPadding().encodeToString(
                    ("token" + random.nextInt()).getBytes(java.nio.charset.StandardCharsets.US_ASCII)) : p);
            if (random.nextInt(20) == 0) {
                s.append("x".repeat(random.nextInt(Math.max(1, length / 2))));
            }
        }
        return s.substring(0, Math.min(s.length(), Math.max(length, 1)));
    }

    private static String key(Random random) {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }

    private static String shorten(Map<String, String> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach((k, v) -> out.put(k, v.length() > 80 ? v.substring(0, 80) + "...(" + v.length() + ")" : v));
        return out.toString();
    }
}
