package io.kapi.e2e.fuzz;

import java.util.Map;
import java.util.Random;

/**
 * Tokens that must stop working with what they were issued for (kube's service-account lookup): a token of
 * the TokenRequest API, or a legacy Secret's, is shown to work ({@code 200} on {@code /version}, which every
 * authenticated user may read), then its account, bound pod, secret or node is deleted or replaced by one of
 * the same name and a new uid, or its legacy Secret deleted, and the next request must be {@code 401}. A token
 * whose objects are untouched (another account's object changed) must keep working.
 */
final class TokenRevocation implements Family {

    private static final String NS = "fuzz-tokens";
    private static final String[] WAYS = {"account-deleted", "account-recreated", "pod-deleted", "pod-recreated",
            "secret-deleted", "secret-recreated", "node-deleted", "legacy-secret-deleted", "untouched"};

    private int serial;

    @Override
    public void run(Target target, Random random, int count, Tally tally) throws Exception {
        target.admin("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + NS + "\"}}");
        for (int sent = 0; sent < count; sent += 2) {
            revoke(target, WAYS[random.nextInt(WAYS.length)], tally);
        }
        target.admin("DELETE", "/api/v1/namespaces/" + NS, null);
    }

    private void revoke(Target target, String way, Tally tally) throws Exception {
        String n = way + "-" + (serial++);
        String account = "sa-" + n;
        String base = "/api/v1/namespaces/" + NS;
        must(target.admin("POST", base + "/serviceaccounts", "{\"metadata\":{\"name\":\"" + account + "\"}}"), "201");
        String token;
        Runnable revoke;
        switch (way) {
            case "pod-deleted", "pod-recreated" -> {
                String pod = """
                        {"metadata":{"name":"p-%s"},"spec":{"serviceAccountName":"%s","automountServiceAccountToken":false,
                         "containers":[{"name":"c","image":"busybox"}]}}""".formatted(n, account);
                must(target.admin("POST", base + "/pods", pod), "201");
                token = bound(target, account, "Pod", "v1", "p-" + n);
                revoke = () -> {
                    delete(target, base + "/pods/p-" + n + "?gracePeriodSeconds=0");
                    if (way.equals("pod-recreated")) {
                        must(call(() -> target.admin("POST", base + "/pods", pod)), "201");
                    }
                };
            }
            case "secret-deleted", "secret-recreated", "untouched" -> {
                String secret = "{\"metadata\":{\"name\":\"s-" + n + "\"},\"stringData\":{\"k\":\"v\"}}";
                must(target.admin("POST", base + "/secrets", secret), "201");
                token = bound(target, account, "Secret", "v1", "s-" + n);
                revoke = () -> {
                    if (way.equals("untouched")) { // another object changes, not the token's
                        must(call(() -> target.admin("POST", base + "/secrets",
                                "{\"metadata\":{\"name\":\"other-" + n + "\"}}")), "201");
                        return;
                    }
                    delete(target, base + "/secrets/s-" + n);
                    if (way.equals("secret-recreated")) {
                        must(call(() -> target.admin("POST", base + "/secrets", secret)), "201");
                    }
                };
            }
            case "node-deleted" -> {
                must(target.admin("POST", "/api/v1/nodes", "{\"metadata\":{\"name\":\"node-" + n + "\"}}"), "201");
                token = bound(target, account, "Node", "v1", "node-" + n);
                revoke = () -> delete(target, "/api/v1/nodes/node-" + n);
            }
            case "legacy-secret-deleted" -> {
                must(target.admin("POST", base + "/secrets", """
                        {"metadata":{"name":"legacy-%s","annotations":{"kubernetes.io/service-account.name":"%s"}},
                         "type":"kubernetes.io/service-account-token"}""".formatted(n, account)), "201");
                token = legacyToken(target, base + "/secrets/legacy-" + n);
                revoke = () -> delete(target, base + "/secrets/legacy-" + n);
            }
            default -> { // the account itself
                token = bound(target, account, null, null, null);
                revoke = () -> {
                    delete(target, base + "/serviceaccounts/" + account);
                    if (way.equals("account-recreated")) {
                        must(call(() -> target.admin("POST", base + "/serviceaccounts",
                                "{\"metadata\":{\"name\":\"" + account + "\"}}")), "201");
                    }
                };
            }
        }
        tally.expect("200", target.as(token, "GET", "/version", Map.of(), null), way + ": before");
        revoke.run();
        tally.expect(way.equals("untouched") ? "200" : "401",
                target.as(token, "GET", "/version", Map.of(), null), way + ": after");
    }

    /** A token of the TokenRequest API for the account, bound to the object when one is named. */
    private static String bound(Target target, String account, String kind, String apiVersion, String name)
            throws InterruptedException {
        String ref = kind == null ? "" : ",\"boundObjectRef\":{\"kind\":\"%s\",\"apiVersion\":\"%s\",\"name\":\"%s\"}"
                .formatted(kind, apiVersion, name);
        Target.Answer a = target.admin("POST", "/api/v1/namespaces/" + NS + "/serviceaccounts/" + account + "/token",
                "{\"spec\":{\"expirationSeconds\":3600" + ref + "}}");
        must(a, "201");
        return a.json().path("status").path("token").asText();
    }

    /** The token the token controller puts in a service-account-token Secret. */
    private static String legacyToken(Target target, String path) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            String token = target.admin("GET", path, null).json().path("data").path("token").asText();
            if (!token.isEmpty()) {
                return new String(java.util.Base64.getDecoder().decode(token), java.nio.charset.StandardCharsets.UTF_8);
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the token controller never filled " + path);
    }

    private static void delete(Target target, String path) {
        Target.Answer a = call(() -> target.admin("DELETE", path, null));
        if (a.status() != 200 && a.status() != 202) {
            throw new IllegalStateException("DELETE " + path + ": " + a.outcome() + " " + a.text());
        }
    }

    private static void must(Target.Answer a, String status) {
        if (!a.outcome().equals(status)) {
            throw new IllegalStateException("set-up answered " + a.outcome() + ": " + a.text());
        }
    }

    private interface Call {
        Target.Answer get() throws InterruptedException;
    }

    private static Target.Answer call(Call call) {
        try {
            return call.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
