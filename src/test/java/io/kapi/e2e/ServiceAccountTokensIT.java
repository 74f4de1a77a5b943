package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Service-account tokens as kubectl users meet them: legacy tokens that the tokens controller writes into
 * {@code kubernetes.io/service-account-token} Secrets, and {@code kubectl create token --bound-object-*}
 * tokens bound to a pod, a secret or a node; each refused on the very next request once what it stands for
 * is gone (kube-apiserver may still accept it for the 10 s of its token cache; Kapi does not cache these).
 */
@DisplayName("service-account tokens with kubectl")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
final class ServiceAccountTokensIT {

    private static final String UNAUTHORIZED = "error: You must be logged in to the server (Unauthorized)";
    /** The token controller and the authenticator's caches act in the background: reads are polled for a minute. */
    private static final Await PATIENCE = Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(250));

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    private final Identities as = new Identities(KAPI);

    private static Kubectl admin() {
        return KAPI.kubectl();
    }

    private static JsonNode json(Kubectl.Result r) {
        try {
            return Json.MAPPER.readTree(r.assertOk().stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode whoami(Kubectl kubectl) {
        return json(kubectl.run("auth", "whoami", "-o", "json")).path("status").path("userInfo");
    }

    /** The next request with the credential is refused: revocation is immediate. */
    private static void assertUnauthorized(Kubectl kubectl, String why) {
        Kubectl.Result r = kubectl.run("auth", "whoami");
        assertTrue(r.exitCode() != 0 && r.stderr().contains(UNAUTHORIZED), why + ": " + r);
    }

    private static String decoded(JsonNode data, String key) {
        return new String(Base64.getDecoder().decode(data.path(key).asText()), StandardCharsets.UTF_8);
    }

    private static void tokenSecret(String name, String account) {
        admin().runWithInput("""
                apiVersion: v1
                kind: Secret
                metadata:
                  name: %s
                  annotations: {kubernetes.io/service-account.name: %s}
                type: kubernetes.io/service-account-token
                """.formatted(name, account), "apply", "-f", "-").assertOk();
    }

    private static JsonNode filledSecret(String name) {
        return PATIENCE.until("the token controller to fill " + name,
                () -> json(admin().run("get", "secret", name, "-o", "json")), s -> !s.path("data").path("token").asText().isEmpty());
    }

    @Test
    @DisplayName("a service-account-token Secret gets token, ca.crt and namespace; the token is the account until "
            + "the Secret is deleted, and its use is labelled with the day")
    void legacySecretToken() {
        admin().run("create", "serviceaccount", "legacy-robot").assertOk();
        String accountUid = json(admin().run("get", "serviceaccount", "legacy-robot", "-o", "json"))
                .path("metadata").path("uid").asText();
        tokenSecret("legacy-robot-token", "legacy-robot");
        JsonNode secret = filledSecret("legacy-robot-token");
        JsonNode data = secret.path("data");
        assertEquals("default", decoded(data, "namespace"));
        assertTrue(decoded(data, "ca.crt").startsWith("-----BEGIN CERTIFICATE-----"), secret.toString());
        assertEquals(accountUid, secret.path("metadata").path("annotations")
                .path("kubernetes.io/service-account.uid").asText(), secret.toString());
        String token = decoded(data, "token");
        JsonNode claims = jwtClaims(token);
        assertEquals("kubernetes/serviceaccount", claims.path("iss").asText());
        assertEquals("legacy-robot-token", claims.path("kubernetes.io/serviceaccount/secret.name").asText());
        assertTrue(claims.path("exp").isMissingNode(), "legacy tokens do not expire: " + claims);

        Kubectl robot = as.token(token);
        JsonNode user = whoami(robot);
        assertEquals("system:serviceaccount:default:legacy-robot", user.path("username").asText());
        assertEquals(accountUid, user.path("uid").asText());
        assertEquals("[\"system:serviceaccounts\",\"system:serviceaccounts:default\",\"system:authenticated\"]",
                user.path("groups").toString());
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        String tomorrow = LocalDate.now(ZoneOffset.UTC).plusDays(1).toString();
        PATIENCE.until("the last-used label", () -> json(admin().run("get", "secret", "legacy-robot-token", "-o", "json"))
                .path("metadata").path("labels").path("kubernetes.io/legacy-token-last-used").asText(),
                day -> day.equals(today) || day.equals(tomorrow));

        admin().run("delete", "secret", "legacy-robot-token").assertOk();
        assertUnauthorized(robot, "refused once its Secret is deleted");
    }

    @Test
    @DisplayName("kube-system has kube-apiserver-legacy-service-account-token-tracking, saying since which day the "
            + "server labels legacy tokens it sees used")
    void legacyTokenTrackingSince() {
        JsonNode cm = PATIENCE.until("the tracking ConfigMap", () -> {
            String out = admin().run("get", "configmap", "-n", "kube-system",
                    "kube-apiserver-legacy-service-account-token-tracking", "-o", "json", "--ignore-not-found")
                    .assertOk().stdout();
            return out.isBlank() ? Json.object() : Json.MAPPER.readTree(out);
        }, c -> c.has("data"));
        assertEquals(1, cm.path("data").size(), cm.toString());
        String since = cm.path("data").path("since").asText();
        assertTrue(since.matches("\\d{4}-\\d{2}-\\d{2}"), since);
        assertTrue(!LocalDate.parse(since).isAfter(LocalDate.now(ZoneOffset.UTC).plusDays(1)), since);
        assertEquals("ok", admin().run("get", "--raw", "/readyz/poststarthook/start-legacy-token-tracking-controller")
                .assertOk().stdout().strip());
    }

    @Test
    @DisplayName("deleting the service account deletes its token Secrets and the token stops working")
    void legacyAccountDeleted() {
        admin().run("create", "serviceaccount", "doomed-robot").assertOk();
        tokenSecret("doomed-robot-token", "doomed-robot");
        Kubectl robot = as.token(decoded(filledSecret("doomed-robot-token").path("data"), "token"));
        assertEquals("system:serviceaccount:default:doomed-robot", whoami(robot).path("username").asText());
        admin().run("delete", "serviceaccount", "doomed-robot").assertOk();
        assertUnauthorized(robot, "refused once its account is deleted");
        PATIENCE.until("the token Secret to be deleted with its account",
                () -> admin().run("get", "secret", "doomed-robot-token"), r -> r.exitCode() != 0);
        tokenSecret("orphan-token", "no-such-robot");
        PATIENCE.until("a token Secret of a missing account to be deleted",
                () -> admin().run("get", "secret", "orphan-token"), r -> r.exitCode() != 0);
    }

    @Test
    @DisplayName("a token of kubectl create token is refused at once when its account is deleted, and stays refused "
            + "when an account of that name is created again")
    void boundAccountGone() {
        admin().run("create", "serviceaccount", "short-lived").assertOk();
        Kubectl robot = as.token(admin().run("create", "token", "short-lived").assertOk().stdout().strip());
        assertEquals("system:serviceaccount:default:short-lived", whoami(robot).path("username").asText());
        assertEquals("system:serviceaccount:default:short-lived", whoami(robot).path("username").asText(),
                "accepted twice: what a cache would keep");
        admin().run("delete", "serviceaccount", "short-lived").assertOk();
        assertUnauthorized(robot, "refused once its account is deleted");
        admin().run("create", "serviceaccount", "short-lived").assertOk();
        assertUnauthorized(robot, "an account of that name has another uid");
    }

    @Test
    @DisplayName("a legacy token whose Secret is labelled legacy-token-invalid-since is refused")
    void legacyInvalidSince() {
        admin().run("create", "serviceaccount", "stale-robot").assertOk();
        tokenSecret("stale-robot-token", "stale-robot");
        Kubectl robot = as.token(decoded(filledSecret("stale-robot-token").path("data"), "token"));
        assertEquals("system:serviceaccount:default:stale-robot", whoami(robot).path("username").asText());
        admin().run("label", "secret", "stale-robot-token", "kubernetes.io/legacy-token-invalid-since=2024-01-01")
                .assertOk();
        assertUnauthorized(robot, "refused once marked invalid");
    }

    @Test
    @DisplayName("a token bound to a pod carries pod-name, pod-uid and node-name; refused once the pod is deleted, "
            + "also when a pod of that name is created again")
    void boundToPod() {
        admin().run("create", "serviceaccount", "pod-robot").assertOk();
        admin().runWithInput("""
                apiVersion: v1
                kind: Node
                metadata: {name: token-node}
                """, "apply", "-f", "-").assertOk();
        String podYaml = """
                apiVersion: v1
                kind: Pod
                metadata: {name: token-pod}
                spec:
                  serviceAccountName: pod-robot
                  nodeName: token-node
                  containers: [{name: c, image: nginx}]
                """;
        admin().runWithInput(podYaml, "apply", "-f", "-").assertOk();
        String podUid = json(admin().run("get", "pod", "token-pod", "-o", "json")).path("metadata").path("uid").asText();
        String token = admin().run("create", "token", "pod-robot", "--bound-object-kind=Pod",
                "--bound-object-name=token-pod").assertOk().stdout().strip();
        JsonNode claims = jwtClaims(token).path("kubernetes.io");
        assertEquals(podUid, claims.path("pod").path("uid").asText(), claims.toString());
        assertEquals("token-node", claims.path("node").path("name").asText(), claims.toString());
        Kubectl robot = as.token(token);
        JsonNode extra = whoami(robot).path("extra");
        assertEquals("[\"token-pod\"]", extra.path("authentication.kubernetes.io/pod-name").toString());
        assertEquals("[\"" + podUid + "\"]", extra.path("authentication.kubernetes.io/pod-uid").toString());
        assertEquals("[\"token-node\"]", extra.path("authentication.kubernetes.io/node-name").toString());
        assertEquals(1, extra.path("authentication.kubernetes.io/node-uid").size(), extra.toString());

        admin().run("delete", "pod", "token-pod", "--grace-period=0", "--force").assertOk();
        assertUnauthorized(robot, "refused once the pod is deleted");
        admin().runWithInput(podYaml, "apply", "-f", "-").assertOk();
        Kubectl.Result again = robot.run("auth", "whoami").assertFailed();
        assertTrue(again.stderr().contains(UNAUTHORIZED), "a new pod of that name has another uid: " + again);
    }

    @Test
    @DisplayName("tokens bound to a secret or a node are refused once it is deleted; a pod of another account, "
            + "a wrong uid and an unknown kind are refused as kube-apiserver words it")
    void boundToSecretAndNode() {
        admin().run("create", "serviceaccount", "bound-robot").assertOk();
        admin().run("create", "secret", "generic", "bound-secret", "--from-literal=k=v").assertOk();
        Kubectl bySecret = as.token(admin().run("create", "token", "bound-robot", "--bound-object-kind=Secret",
                "--bound-object-name=bound-secret").assertOk().stdout().strip());
        assertEquals("system:serviceaccount:default:bound-robot", whoami(bySecret).path("username").asText());

        admin().runWithInput("apiVersion: v1\nkind: Node\nmetadata: {name: bound-node}\n", "apply", "-f", "-")
                .assertOk();
        Kubectl byNode = as.token(admin().run("create", "token", "bound-robot", "--bound-object-kind=Node",
                "--bound-object-name=bound-node").assertOk().stdout().strip());
        JsonNode extra = whoami(byNode).path("extra");
        assertEquals("[\"bound-node\"]", extra.path("authentication.kubernetes.io/node-name").toString());

        admin().run("delete", "secret", "bound-secret").assertOk();
        admin().run("delete", "node", "bound-node").assertOk();
        assertUnauthorized(bySecret, "refused once the secret is deleted");
        assertUnauthorized(byNode, "refused once the node is deleted");

        Kubectl.Result wrongUid = admin().run("create", "token", "bound-robot", "--bound-object-kind=Secret",
                "--bound-object-name=bound-secret", "--bound-object-uid=0d4691ed-659b-4935-a832-355f77ee47cc")
                .assertFailed();
        assertTrue(wrongUid.stderr().contains("secrets \"bound-secret\" not found"), wrongUid.toString());
        admin().run("create", "secret", "generic", "bound-secret", "--from-literal=k=v").assertOk();
        Kubectl.Result conflict = admin().run("create", "token", "bound-robot", "--bound-object-kind=Secret",
                "--bound-object-name=bound-secret", "--bound-object-uid=0d4691ed-659b-4935-a832-355f77ee47cc")
                .assertFailed();
        assertTrue(conflict.stderr().contains("the UID in the bound object reference "
                + "(0d4691ed-659b-4935-a832-355f77ee47cc) does not match the UID in record"), conflict.toString());
    }

    private static JsonNode jwtClaims(String token) {
        try {
            return Json.MAPPER.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
