package io.kapi.e2e.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Attempts to gain privileges through RBAC objects, as a user ({@value #USER}, by token) who may write roles and
 * bindings but holds only {@link #WRITER}'s rules: ClusterRoles and Roles with random rules, an
 * {@code aggregationRule} on a new role or on the role bound to the user, bindings to the built-in roles or to
 * the user's own, and impersonation of the admin. kube-apiserver's escalation check allows a role or binding
 * only when the writer already holds every rule it grants ({@code 201}/{@code 200}), and an aggregationRule
 * never for a user who may not escalate ({@code 403} "must have cluster-admin privileges to use the
 * aggregationRule"); each answer is held to that, and every 25 attempts, and at the end, the user must still be
 * refused the secrets it never held.
 */
final class RbacEscalation implements Family {

    static final String USER = "mallory";
    static final String TOKEN = "mallory-token";
    private static final String RBAC = "rbac.authorization.k8s.io";
    private static final String API = "/apis/" + RBAC + "/v1";
    /** The writer's rules: RBAC objects (but not bind or escalate), and reading ConfigMaps. */
    private static final String WRITER = """
            [{"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles","roles","clusterrolebindings",
              "rolebindings"],"verbs":["create","update","patch","get","list","delete"]},
             {"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list"]}]""";
    private static final Set<String> WRITER_RBAC_RESOURCES = Set.of("clusterroles", "roles", "clusterrolebindings",
            "rolebindings");
    private static final Set<String> WRITER_RBAC_VERBS = Set.of("create", "update", "patch", "get", "list", "delete");
    private static final String[] GROUPS = {"", "apps", RBAC, "*"};
    private static final String[] RESOURCES = {"configmaps", "secrets", "pods", "pods/exec", "nodes", "clusterroles",
            "roles", "rolebindings", "clusterrolebindings", "*"};
    private static final String[] VERBS = {"get", "list", "watch", "create", "update", "patch", "delete", "escalate",
            "bind", "impersonate", "*"};
    private static final String[] BUILT_IN_ROLES = {"cluster-admin", "admin", "edit", "view", "system:node",
            "system:controller:clusterrole-aggregation-controller"};
    private static final String[] AGGREGATE_LABELS = {"rbac.authorization.k8s.io/aggregate-to-admin",
            "rbac.authorization.k8s.io/aggregate-to-edit", "rbac.authorization.k8s.io/aggregate-to-view",
            "kubernetes.io/bootstrapping"};

    private int serial;

    @Override
    public void run(Target target, Random random, int count, Tally tally) throws Exception {
        setUp(target);
        for (int i = 0; i < count; i++) {
            attempt(target, random, tally);
            if (i % 25 == 24) {
                stillRefused(target, tally, "after " + (i + 1) + " attempts");
            }
        }
        Thread.sleep(1000); // what the aggregation controller would have added by now
        stillRefused(target, tally, "at the end");
        target.admin("DELETE", API + "/clusterroles?labelSelector=fuzz%3Drbac", null);
        target.admin("DELETE", API + "/clusterrolebindings?labelSelector=fuzz%3Drbac", null);
        target.admin("DELETE", API + "/namespaces/default/roles?labelSelector=fuzz%3Drbac", null);
        target.admin("DELETE", API + "/namespaces/default/rolebindings?labelSelector=fuzz%3Drbac", null);
        for (String name : List.of("mallory-own", "fuzz-rbac-writer")) {
            target.admin("DELETE", API + "/clusterrolebindings/" + name, null);
            target.admin("DELETE", API + "/clusterroles/" + name, null);
        }
    }

    private static void setUp(Target target) throws Exception {
        target.admin("POST", API + "/clusterroles", """
                {"metadata":{"name":"fuzz-rbac-writer"},"rules":%s}""".formatted(WRITER));
        target.admin("POST", API + "/clusterrolebindings", """
                {"metadata":{"name":"fuzz-rbac-writer"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",
                 "kind":"ClusterRole","name":"fuzz-rbac-writer"},
                 "subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"%s"}]}""".formatted(USER));
        // the role bound to the user that it will try to widen: only rules it holds
        target.admin("POST", API + "/clusterroles", """
                {"metadata":{"name":"mallory-own"},"rules":[{"apiGroups":[""],"resources":["configmaps"],
                 "verbs":["get"]}]}""");
        target.admin("POST", API + "/clusterrolebindings", """
                {"metadata":{"name":"mallory-own"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",
                 "kind":"ClusterRole","name":"mallory-own"},
                 "subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"%s"}]}""".formatted(USER));
        for (int i = 0; i < 150; i++) { // the authorizer sees the binding through its watch
            if (target.as(TOKEN, "GET", API + "/clusterroles/mallory-own", Map.of(), null).status() == 200) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(USER + "'s binding never took effect");
    }

    private void attempt(Target target, Random random, Tally tally) throws Exception {
        String name = "fz-" + (serial++) + "-" + Integer.toHexString(random.nextInt());
        switch (random.nextInt(8)) {
            case 0, 1 -> { // a ClusterRole with random rules, at times with aggregation labels
                List<Rule> rules = rules(random);
                String body = """
                        {"metadata":{"name":"%s","labels":{"fuzz":"rbac"%s}},"rules":%s}""".formatted(name,
                        random.nextInt(4) == 0 ? ",\"" + pick(random, AGGREGATE_LABELS) + "\":\"true\"" : "",
                        json(rules));
                send(target, tally, covered(rules) ? "201" : "403", "POST", API + "/clusterroles", body);
            }
            case 2 -> { // a Role in default with random rules
                List<Rule> rules = rules(random).stream().filter(r -> !r.nonResource()).toList();
                String body = """
                        {"metadata":{"name":"%s","labels":{"fuzz":"rbac"}},"rules":%s}""".formatted(name, json(rules));
                send(target, tally, covered(rules) ? "201" : "403", "POST",
                        API + "/namespaces/default/roles", body);
            }
            case 3 -> { // a new ClusterRole that aggregates the built-in roles' rules
                String body = """
                        {"metadata":{"name":"%s","labels":{"fuzz":"rbac"}},"aggregationRule":{"clusterRoleSelectors":
                         [{"matchLabels":{"%s":"true"}}]}%s}""".formatted(name, pick(random, AGGREGATE_LABELS),
                        random.nextBoolean() ? ",\"rules\":[]" : "");
                send(target, tally, "403", "POST", API + "/clusterroles", body);
            }
            case 4 -> { // widen the user's own bound role: its rules, or an aggregationRule
                if (random.nextBoolean()) {
                    List<Rule> rules = rules(random);
                    send(target, tally, covered(rules) ? "200" : "403", "PATCH", API + "/clusterroles/mallory-own",
                            "{\"rules\":" + json(rules) + "}", "application/merge-patch+json");
                } else {
                    send(target, tally, "403", "PATCH", API + "/clusterroles/mallory-own", """
                            {"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"%s":"true"}}]}}"""
                            .formatted(pick(random, AGGREGATE_LABELS)), "application/merge-patch+json");
                }
            }
            case 5 -> { // bind a built-in role (more than the user holds) or the user's own (no more)
                boolean own = random.nextInt(4) == 0;
                String role = own ? "mallory-own" : pick(random, BUILT_IN_ROLES);
                String subject = random.nextBoolean()
                        ? "{\"kind\":\"User\",\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"" + USER + "\"}"
                        : "{\"kind\":\"Group\",\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"system:authenticated\"}";
                if (random.nextBoolean()) {
                    send(target, tally, own ? "201" : "403", "POST", API + "/clusterrolebindings", """
                            {"metadata":{"name":"%s","labels":{"fuzz":"rbac"}},"roleRef":{"apiGroup":
                             "rbac.authorization.k8s.io","kind":"ClusterRole","name":"%s"},"subjects":[%s]}"""
                            .formatted(name, role, subject));
                } else {
                    send(target, tally, own ? "201" : "403", "POST", API + "/namespaces/default/rolebindings", """
                            {"metadata":{"name":"%s","labels":{"fuzz":"rbac"}},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",
                             "kind":"ClusterRole","name":"%s"},"subjects":[%s]}""".formatted(name, role, subject));
                }
            }
            case 6 -> { // point an existing binding of the user's at a bigger role (roleRef is immutable)
                Target.Answer a = target.as(TOKEN, "PATCH", API + "/clusterrolebindings/mallory-own",
                        Map.of("Content-Type", "application/merge-patch+json"),
                        "{\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\",\"name\":\""
                                + pick(random, BUILT_IN_ROLES) + "\"}}");
                tally.count(a, "PATCH clusterrolebindings/mallory-own roleRef");
                if (a.status() / 100 == 2) {
                    tally.fail("a binding's roleRef was changed: " + a.text());
                }
            }
            default -> { // impersonate the admin or its group
                Map<String, String> headers = random.nextBoolean()
                        ? Map.of("Impersonate-User", random.nextBoolean() ? "kubernetes-admin" : "system:admin")
                        : Map.of("Impersonate-User", USER, "Impersonate-Group", "system:masters");
                Target.Answer a = target.as(TOKEN, "GET", "/api/v1/namespaces/default/secrets", headers, null);
                tally.expect("403", a, "GET secrets impersonating " + headers);
            }
        }
    }

    private static void send(Target target, Tally tally, String expected, String method, String path, String body)
            throws InterruptedException {
        send(target, tally, expected, method, path, body, "application/json");
    }

    private static void send(Target target, Tally tally, String expected, String method, String path, String body,
                             String contentType) throws InterruptedException {
        Target.Answer a = target.as(TOKEN, method, path, Map.of("Content-Type", contentType), body);
        tally.expect(expected, a, method + " " + path + " " + body.replace('\n', ' ') + " -> " + a.text());
    }

    /** The user must still be refused what it never held: secrets, and pods in kube-system. */
    private static void stillRefused(Target target, Tally tally, String when) throws InterruptedException {
        for (String path : List.of("/api/v1/namespaces/default/secrets", "/api/v1/namespaces/kube-system/pods")) {
            Target.Answer a = target.as(TOKEN, "GET", path, Map.of(), null);
            tally.count(a, "GET " + path);
            if (!a.outcome().equals("403")) {
                tally.fail(USER + " escalated (" + when + "): GET " + path + " -> " + a.outcome());
            }
        }
    }

    /** A rule: API groups, resources and verbs, or (in a ClusterRole) non-resource URLs and verbs. */
    private record Rule(List<String> groups, List<String> resources, List<String> verbs, List<String> urls,
                        List<String> names) {
        boolean nonResource() {
            return !urls.isEmpty();
        }
    }

    private static List<Rule> rules(Random random) {
        List<Rule> rules = new ArrayList<>();
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            // most rules are the writer's own, so that half the attempts are allowed
            if (random.nextInt(5) == 0) {
                rules.add(new Rule(List.of(), List.of(), some(random, new String[]{"get", "*"}),
                        some(random, new String[]{"/metrics", "*", "/logs/*"}), List.of()));
            } else if (random.nextBoolean()) {
                rules.add(new Rule(List.of(random.nextBoolean() ? "" : RBAC),
                        random.nextBoolean() ? List.of("configmaps") : some(random, new String[]{"roles", "clusterroles"}),
                        some(random, new String[]{"get", "list"}), List.of(),
                        random.nextInt(3) == 0 ? List.of("x") : List.of()));
            } else {
                rules.add(new Rule(some(random, GROUPS), some(random, RESOURCES), some(random, VERBS), List.of(),
                        List.of()));
            }
        }
        return rules;
    }

    /** Whether the writer's rules cover every group, resource and verb the rules name (kube's covers). */
    private static boolean covered(List<Rule> rules) {
        for (Rule r : rules) {
            if (r.nonResource()) {
                return false;
            }
            for (String g : r.groups()) {
                for (String res : r.resources()) {
                    for (String v : r.verbs()) {
                        boolean rbac = g.equals(RBAC) && WRITER_RBAC_RESOURCES.contains(res)
                                && WRITER_RBAC_VERBS.contains(v);
                        boolean configMaps = g.isEmpty() && res.equals("configmaps") && (v.equals("get") || v.equals("list"));
                        if (!rbac && !configMaps) {
                            return false;
                        }
                    }
                }
            }
        }
        return true;
    }

    private static String json(List<Rule> rules) {
        List<String> out = new ArrayList<>();
        for (Rule r : rules) {
            out.add(r.nonResource()
                    ? "{\"nonResourceURLs\":%s,\"verbs\":%s}".formatted(array(r.urls()), array(r.verbs()))
                    : "{\"apiGroups\":%s,\"resources\":%s,\"verbs\":%s%s}".formatted(array(r.groups()),
                    array(r.resources()), array(r.verbs()),
                    r.names().isEmpty() ? "" : ",\"resourceNames\":" + array(r.names())));
        }
        return "[" + String.join(",", out) + "]";
    }

    private static String array(List<String> values) {
        return "[" + String.join(",", values.stream().map(v -> "\"" + v + "\"").toList()) + "]";
    }

    private static List<String> some(Random random, String[] from) {
        List<String> out = new ArrayList<>();
        int n = 1 + random.nextInt(Math.min(3, from.length));
        for (int i = 0; i < n; i++) {
            String v = from[random.nextInt(from.length)];
            if (!out.contains(v)) {
                out.add(v);
            }
        }
        return out;
    }

    private static String pick(Random random, String[] from) {
        return from[random.nextInt(from.length)];
    }
}
