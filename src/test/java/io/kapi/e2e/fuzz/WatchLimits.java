package io.kapi.e2e.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Watches and lists with their parameters at and past their limits: {@code timeoutSeconds} up to and beyond
 * 2^63-1, resource versions of every shape (ahead of the store: kube waits 3 s and answers 504
 * {@code ResourceVersionTooLarge}, counted apart), every {@code resourceVersionMatch}, bookmarks, initial events,
 * limits and selectors broken or long, in JSON and protobuf. {@code timeoutSeconds=92233720368} and
 * {@code 9223372036854775807} on a plain watch must be {@code 200}; nothing may be another {@code 5xx} or hang.
 * Sent by four threads, as a watch that waits for its resource version takes seconds.
 */
final class WatchLimits implements Family {

    private static final String TOO_LARGE = "ResourceVersionTooLarge";
    private static final String[] RESOURCES = {"/api/v1/namespaces/default/configmaps", "/api/v1/pods",
            "/api/v1/watch/namespaces/default/secrets", "/apis/apps/v1/deployments", "/api/v1/namespaces",
            "/apis/rbac.authorization.k8s.io/v1/clusterroles"};
    private static final String[] TIMEOUTS = {"0", "1", "-1", "2147483647", "2147483648", "92233720368",
            "9223372036854775807", "9223372036854775808", "99999999999999999999", "abc", "1.5", "", "%201"};
    private static final String[] VERSIONS = {"", "0", "1", "-1", "abc", "9223372036854775807",
            "18446744073709551616", "1e3", "999999999"};
    private static final String[] MATCHES = {"", "NotOlderThan", "Exact", "bogus"};
    private static final String[] FLAGS = {"true", "false", "x", "1", ""};
    private static final String[] LIMITS = {"", "0", "-1", "500", "9223372036854775807", "x"};
    private static final String[] LABELS = {"", "a%3Db", "a%20in%20(", "x".repeat(10_000) + "%3D1",
            "a%2C".repeat(1000) + "a", "!a", "a%20notin%20(b,c)"};
    private static final String[] FIELDS = {"", "metadata.name%3Dx", "spec.nodeName%3D", "bogus%3D1",
            "metadata.name!%3Da,metadata.name!%3Db", "metadata.namespace%3D%3Ddefault"};
    private static final String[] ACCEPTS = {"application/json", "application/vnd.kubernetes.protobuf",
            "application/json;as=Table;v=v1;g=meta.k8s.io", "application/yaml"};

    @Override
    public void run(Target target, Random random, int count, Tally tally) throws Exception {
        List<String[]> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add(i % 10 == 0 ? control(random) : drawn(random));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (String[] r : requests) {
                sent.add(pool.submit(() -> {
                    Target.Answer a = target.headers(r[0], r[1]);
                    Target.Answer outcome = a.outcome().equals("504") && a.text().contains(TOO_LARGE)
                            ? new Target.Answer("504-rv-too-large", a.body(), a.millis()) : a;
                    String what = "GET " + (r[0].length() > 300 ? r[0].substring(0, 300) + "..." : r[0]) + " " + r[1];
                    if (r[2] != null) {
                        tally.expect(r[2], outcome, what);
                    } else {
                        tally.count(outcome, what);
                    }
                    return null;
                }));
            }
            for (Future<?> f : sent) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A plain watch with one of the timeouts: path, accept, expected status. */
    private static String[] control(Random random) {
        String timeout = random.nextBoolean() ? "92233720368" : "9223372036854775807";
        return new String[]{RESOURCES[random.nextInt(RESOURCES.length)] + "?watch=true&timeoutSeconds=" + timeout,
                "application/json", "200"};
    }

    private static String[] drawn(Random random) {
        StringBuilder q = new StringBuilder(random.nextInt(5) == 0 ? "watch=" + pick(random, FLAGS) : "watch=true");
        maybe(random, q, "timeoutSeconds", TIMEOUTS);
        String rv = pick(random, VERSIONS);
        if (!rv.equals("999999999") || random.nextInt(3) == 0) { // ahead of the store: a 3 s wait, now and then
            maybe(random, q, "resourceVersion", new String[]{rv});
        }
        maybe(random, q, "resourceVersionMatch", MATCHES);
        maybe(random, q, "allowWatchBookmarks", FLAGS);
        maybe(random, q, "sendInitialEvents", FLAGS);
        maybe(random, q, "limit", LIMITS);
        maybe(random, q, "labelSelector", LABELS);
        maybe(random, q, "fieldSelector", FIELDS);
        if (random.nextInt(6) == 0) {
            q.append("&continue=").append(random.nextBoolean() ? "garbage" : "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTF9");
        }
        return new String[]{pick(random, RESOURCES) + "?" + q, pick(random, ACCEPTS), null};
    }

    private static void maybe(Random random, StringBuilder q, String name, String[] values) {
        if (random.nextBoolean()) {
            q.append('&').append(name).append('=').append(pick(random, values));
        }
    }

    private static String pick(Random random, String[] from) {
        return from[random.nextInt(from.length)];
    }
}
