package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.certs.TestCertificates;
import io.kapi.fixtures.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --authorization-mode=Node,RBAC} as a user meets it with kubectl: a token user with no bindings
 * is refused all but public info with kube's 403 wording, a {@code view} RoleBinding lets it read but not
 * write or read secrets, {@code kubectl auth can-i} (and {@code --list}) agree with what happens,
 * impersonation needs the {@code impersonate} verb, and roles cannot grant more than their writer holds.
 */
@DisplayName("RBAC authorization with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class AuthorizationIT {

    /** Bindings take effect once the authorizer's watch sees them: requests that need them are retried for 30 s. */
    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(200));
    private static final String UNAUTHORIZED = "error: You must be logged in to the server (Unauthorized)";

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--token-auth-file=" + tokenFile(),
            "--authorization-mode=Node,RBAC");

    private final Identities as = new Identities(KAPI);

    private static Path tokenFile() {
        try {
            Path file = Files.createTempFile("kapi-tokens-", ".csv");
            file.toFile().deleteOnExit();
            Files.writeString(file, "viewer-token,vera,2001\nnobody-token,nora,2002\nroler-token,rory,2003\n"
                    + "escalator-token,ursula,2004\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("a user without bindings is refused everything but public info, worded as kube-apiserver")
    void noBindings() {
        Kubectl nora = as.token("nobody-token");
        Kubectl.Result pods = nora.run("get", "pods", "-n", "default").assertFailed();
        assertTrue(pods.stderr().contains("Error from server (Forbidden): pods is forbidden: User \"nora\" cannot list "
                + "resource \"pods\" in API group \"\" in the namespace \"default\""), pods.toString());
        Kubectl.Result nodes = nora.run("get", "nodes").assertFailed();
        assertTrue(nodes.stderr().contains("User \"nora\" cannot list resource \"nodes\" in API group \"\" at the "
                + "cluster scope"), nodes.toString());
        nora.run("get", "--raw", "/version").assertOk();
        nora.run("get", "--raw", "/healthz").assertOk();
        assertEquals("no", nora.run("auth", "can-i", "list", "pods").stdout().strip());
        try (ApiClient anonymous = ApiClient.anonymous(KAPI.kapi().kubeconfig(), Map.of())) {
            assertEquals(200, anonymous.get("/readyz").status());
            assertEquals(200, anonymous.get("/version").status());
            ApiClient.Response api = anonymous.get("/api/v1/namespaces");
            assertEquals(403, api.status(), api.toString());
            assertTrue(api.body().contains("namespaces is forbidden: User \\\"system:anonymous\\\" cannot list resource "
                    + "\\\"namespaces\\\" in API group \\\"\\\" at the cluster scope"), api.body());
        }
    }

    @Test
    @DisplayName("a credential that fails is kube's 401, never anonymous (whose 403, or 200 on /healthz and /version, "
            + "would keep clients from refreshing it): an unknown, forged, tampered, unsigned or other-audience token, "
            + "an untrusted client certificate")
    void failedCredentialsAreUnauthorized() throws Exception {
        Kubectl.Result unknown = as.token("no-such-token").run("get", "pods").assertFailed();
        assertTrue(unknown.stderr().contains(UNAUTHORIZED), unknown.toString());
        Kubectl.Result stranger = as.certificate(TestCertificates.client(TestCertificates.ca("stranger"), "mallory",
                List.of("system:masters"))).run("get", "--raw", "/healthz").assertFailed();
        assertTrue(stranger.stderr().contains("Unauthorized"), stranger.toString());

        KAPI.kubectl().run("create", "serviceaccount", "probe").assertOk();
        String good = KAPI.kubectl().run("create", "token", "probe").assertOk().stdout().strip();
        String[] parts = good.split("\\.");
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String otherClaims = b64.encodeToString(new String(Base64.getUrlDecoder().decode(parts[1]),
                StandardCharsets.UTF_8).replace("\"default\"", "\"kube-system\"").getBytes(StandardCharsets.UTF_8));
        Map<String, String> tokens = Map.of(
                "unknown", "no-such-token",
                "tampered", parts[0] + "." + otherClaims + "." + parts[2],
                "alg none", b64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "." + parts[1]
                        + ".",
                "signature dropped", parts[0] + "." + parts[1] + ".",
                "other audience", KAPI.kubectl().run("create", "token", "probe", "--audience=https://vault.example.com")
                        .assertOk().stdout().strip());
        for (var token : tokens.entrySet()) {
            try (ApiClient client = ApiClient.anonymous(KAPI.kapi().kubeconfig(),
                    Map.of("Authorization", "Bearer " + token.getValue()))) {
                for (String path : List.of("/api/v1/namespaces", "/healthz", "/version")) {
                    ApiClient.Response r = client.get(path);
                    assertEquals(401, r.status(), token.getKey() + " " + path + ": " + r);
                    assertEquals("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                            + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}", r.body().strip(),
                            token.getKey() + " " + path);
                }
            }
        }
        try (ApiClient client = ApiClient.anonymous(KAPI.kapi().kubeconfig(), Map.of("Authorization", "Bearer " + good))) {
            assertEquals(200, client.get("/version").status(), "the untouched token");
        }
    }

    @Test
    @DisplayName("a view RoleBinding reads but does not write or read secrets; can-i and --list agree")
    void viewBinding() throws InterruptedException {
        KAPI.kubectl().run("create", "namespace", "viewing").assertOk();
        KAPI.kubectl().run("create", "configmap", "cm1", "-n", "viewing").assertOk();
        KAPI.kubectl().run("create", "secret", "generic", "s1", "-n", "viewing", "--from-literal=a=b").assertOk();
        KAPI.kubectl().run("create", "rolebinding", "vera-view", "-n", "viewing", "--clusterrole=view", "--user=vera")
                .assertOk();
        Kubectl vera = as.token("viewer-token");
        WAIT.poll(() -> vera.run("get", "configmaps", "-n", "viewing"), r -> r.exitCode() == 0).assertOk();
        vera.run("get", "configmap", "cm1", "-n", "viewing", "-o", "name").assertOk();
        Kubectl.Result secrets = vera.run("get", "secrets", "-n", "viewing").assertFailed();
        assertTrue(secrets.stderr().contains("secrets is forbidden: User \"vera\" cannot list resource \"secrets\""),
                secrets.toString());
        Kubectl.Result write = vera.run("create", "configmap", "cm2", "-n", "viewing").assertFailed();
        assertTrue(write.stderr().contains("configmaps is forbidden: User \"vera\" cannot create resource "
                + "\"configmaps\" in API group \"\" in the namespace \"viewing\""), write.toString());
        vera.run("get", "pods", "-n", "default").assertFailed();
        assertEquals("yes", vera.run("auth", "can-i", "list", "configmaps", "-n", "viewing").stdout().strip());
        assertEquals("no", vera.run("auth", "can-i", "list", "secrets", "-n", "viewing").stdout().strip());
        assertEquals("no", vera.run("auth", "can-i", "create", "configmaps", "-n", "viewing").stdout().strip());
        assertEquals("no", vera.run("auth", "can-i", "list", "configmaps", "-n", "default").stdout().strip());
        assertEquals("yes", KAPI.kubectl().run("auth", "can-i", "list", "configmaps", "-n", "viewing", "--as=vera")
                .stdout().strip());
        String list = vera.run("auth", "can-i", "--list", "-n", "viewing").assertOk().stdout();
        assertTrue(list.lines().anyMatch(l -> l.startsWith("configmaps ") && l.contains("[get list watch]")), list);
        assertTrue(list.lines().noneMatch(l -> l.startsWith("secrets ")), list);
    }

    @Test
    @DisplayName("impersonation needs the impersonate verb; the admin may impersonate anyone")
    void impersonation() {
        Kubectl nora = as.token("nobody-token");
        Kubectl.Result r = nora.run("--as=vera", "get", "pods").assertFailed();
        assertTrue(r.stderr().contains("users \"vera\" is forbidden: User \"nora\" cannot impersonate resource \"users\" "
                + "in API group \"\" at the cluster scope"), r.toString());
        Kubectl.Result admin = KAPI.kubectl().run("--as=nora", "get", "pods", "-n", "default").assertFailed();
        assertTrue(admin.stderr().contains("User \"nora\" cannot list resource \"pods\""), admin.toString());
    }

    @Test
    @DisplayName("a user allowed to create roles cannot create one granting more than it holds")
    void escalation() throws InterruptedException {
        KAPI.kubectl().run("create", "namespace", "roling").assertOk();
        KAPI.kubectl().run("create", "role", "role-maker", "-n", "roling", "--verb=create", "--resource=roles",
                "--verb=get", "--resource=configmaps").assertOk();
        KAPI.kubectl().run("create", "rolebinding", "rory-maker", "-n", "roling", "--role=role-maker", "--user=rory")
                .assertOk();
        Kubectl rory = as.token("roler-token");
        WAIT.poll(() -> rory.run("auth", "can-i", "create", "roles", "-n", "roling"), r -> r.exitCode() == 0).assertOk();
        rory.run("create", "role", "cm-reader", "-n", "roling", "--verb=get", "--resource=configmaps").assertOk();
        Kubectl.Result more = rory.run("create", "role", "secret-reader", "-n", "roling", "--verb=get",
                "--resource=secrets").assertFailed();
        assertTrue(more.stderr().contains("roles.rbac.authorization.k8s.io \"secret-reader\" is forbidden: user \"rory\" "
                + "(groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
                + "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}"), more.toString());
    }

    @Test
    @DisplayName("a user who may write ClusterRoles and bindings cannot become cluster-admin: no aggregationRule "
            + "(by patch, JSON patch, server-side apply, create or dry run), no binding of cluster-admin")
    void aggregationEscalation() throws InterruptedException {
        Kubectl admin = KAPI.kubectl();
        admin.run("create", "clusterrole", "ursula-writer", "--verb=get,list,create,update,patch",
                "--resource=clusterroles,clusterrolebindings").assertOk();
        admin.runWithInput("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: ursula-own}
                rules: []
                """, "create", "-f", "-").assertOk();
        admin.run("create", "clusterrolebinding", "ursula-writer", "--clusterrole=ursula-writer", "--user=ursula")
                .assertOk();
        admin.run("create", "clusterrolebinding", "ursula-own", "--clusterrole=ursula-own", "--user=ursula").assertOk();
        Kubectl ursula = as.token("escalator-token");
        WAIT.poll(() -> ursula.run("get", "clusterrole", "ursula-own"), r -> r.exitCode() == 0).assertOk();
        String selector = "{\"clusterRoleSelectors\":[{\"matchLabels\":{"
                + "\"rbac.authorization.k8s.io/aggregate-to-admin\":\"true\"}}]}";
        String refused = "clusterroles.rbac.authorization.k8s.io \"ursula-own\" is forbidden: must have cluster-admin "
                + "privileges to use the aggregationRule";
        java.util.List<Kubectl.Result> attempts = java.util.List.of(
                ursula.run("patch", "clusterrole", "ursula-own", "--type=merge", "-p",
                        "{\"aggregationRule\":" + selector + "}"),
                ursula.run("patch", "clusterrole", "ursula-own", "--type=json", "-p",
                        "[{\"op\":\"add\",\"path\":\"/aggregationRule\",\"value\":" + selector + "}]"),
                ursula.run("patch", "clusterrole", "ursula-own", "--type=merge", "--dry-run=server", "-p",
                        "{\"aggregationRule\":" + selector + "}"),
                ursula.runWithInput("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRole
                        metadata: {name: ursula-own}
                        aggregationRule:
                          clusterRoleSelectors:
                          - matchLabels: {rbac.authorization.k8s.io/aggregate-to-admin: "true"}
                        """, "apply", "--server-side", "-f", "-"));
        for (Kubectl.Result r : attempts) {
            assertTrue(r.exitCode() != 0 && r.stderr().contains("(Forbidden)") && r.stderr().contains(refused),
                    r.toString());
        }
        Kubectl.Result create = ursula.runWithInput("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: ursula-admin}
                aggregationRule:
                  clusterRoleSelectors:
                  - matchLabels: {rbac.authorization.k8s.io/aggregate-to-admin: "true"}
                """, "create", "-f", "-").assertFailed();
        assertTrue(create.stderr().contains("clusterroles.rbac.authorization.k8s.io \"ursula-admin\" is forbidden: "
                + "must have cluster-admin privileges to use the aggregationRule"), create.toString());
        assertEquals("", admin.run("get", "clusterrole", "ursula-own", "-o", "jsonpath={.aggregationRule}")
                .assertOk().stdout().strip(), "nothing stored");
        Kubectl.Result bind = ursula.run("create", "clusterrolebinding", "ursula-admin", "--clusterrole=cluster-admin",
                "--user=ursula").assertFailed();
        assertTrue(bind.stderr().contains("clusterrolebindings.rbac.authorization.k8s.io \"ursula-admin\" is "
                + "forbidden: user \"ursula\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC "
                + "permissions not currently held:\n{APIGroups:[\"*\"], Resources:[\"*\"], Verbs:[\"*\"]}\n"
                + "{NonResourceURLs:[\"*\"], Verbs:[\"*\"]}"), bind.toString());
        Kubectl.Result secrets = ursula.run("get", "secrets", "-A").assertFailed();
        assertTrue(secrets.stderr().contains("(Forbidden)"), secrets.toString());
    }

    @Test
    @DisplayName("the authorization matrix: kubectl auth can-i answers as kube-apiserver for each identity, verb "
            + "and resource")
    void matrix() throws Exception {
        Kubectl admin = KAPI.kubectl();
        admin.run("create", "namespace", "matrix").assertOk();
        admin.run("create", "serviceaccount", "robot", "-n", "matrix").assertOk();
        admin.run("create", "rolebinding", "robot-edit", "-n", "matrix", "--clusterrole=edit",
                "--serviceaccount=matrix:robot").assertOk();
        admin.run("create", "role", "cm-reader", "-n", "matrix", "--verb=get,list", "--resource=configmaps").assertOk();
        admin.run("create", "rolebinding", "rita-cm", "-n", "matrix", "--role=cm-reader", "--user=rita").assertOk();
        admin.run("create", "clusterrole", "node-reader", "--verb=get,list", "--resource=nodes").assertOk();
        admin.run("create", "clusterrolebinding", "rita-nodes", "--clusterrole=node-reader", "--user=rita").assertOk();
        java.util.Map<String, String[]> identities = java.util.Map.of("admin", new String[0],
                "node", new String[] {"--as=system:node:n1", "--as-group=system:nodes"},
                "robot", new String[] {"--as=system:serviceaccount:matrix:robot"},
                "rita", new String[] {"--as=rita"});
        WAIT.poll(() -> admin.run("auth", "can-i", "list", "nodes", "--as=rita"), r -> r.exitCode() == 0);
        WAIT.poll(() -> admin.run("auth", "can-i", "delete", "secrets", "-n", "matrix",
                "--as=system:serviceaccount:matrix:robot"), r -> r.exitCode() == 0);
        java.util.List<String> wrong = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(3)) {
            for (var identity : identities.entrySet()) {
                for (String verb : AccessMatrix.VERBS) {
                    for (String resource : AccessMatrix.RESOURCES) {
                        pool.submit(() -> check(admin, identity.getKey(), identity.getValue(), verb, resource, wrong));
                    }
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        Kubectl.Result anonymous = admin.run("--as=system:anonymous", "auth", "can-i", "get", "pods", "-n", "matrix")
                .assertFailed();
        assertTrue(anonymous.stderr().contains("selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "
                + "\"system:anonymous\" cannot create resource \"selfsubjectaccessreviews\" in API group "
                + "\"authorization.k8s.io\" at the cluster scope"), anonymous.toString());
    }

    private static void check(Kubectl admin, String identity, String[] as, String verb, String resource,
                              java.util.List<String> wrong) {
        String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(as),
                java.util.stream.Stream.of("auth", "can-i", verb, resource, "-n", "matrix")).toArray(String[]::new);
        Kubectl.Result r = admin.run(args);
        String answer = r.stdout().strip();
        boolean expected = AccessMatrix.allowed(identity, verb, resource);
        boolean got = answer.equals("yes");
        if (got != expected || (!got && !answer.startsWith("no"))) {
            wrong.add("%s %s %s: kube says %s, Kapi said %s %s".formatted(identity, verb, resource,
                    expected ? "yes" : "no", answer, r.stderr().strip()));
        }
    }
}
