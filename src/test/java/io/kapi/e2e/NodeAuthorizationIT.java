package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kubelets under the Node and RBAC authorizers (given by {@code --authorization-config}) as kubectl meets them, with a client
 * certificate for {@code system:node:n1} in {@code system:nodes} issued by the cluster CA, and by
 * impersonation: a node reads what its pods refer to and nothing else, and (NodeRestriction) modifies
 * only its own Node and pods, with kube's 403 wording.
 */
@DisplayName("Node authorization with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class NodeAuthorizationIT {

    /** The Node authorizer's graph follows the objects a moment later: requests that need it are retried for 30 s. */
    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(200));

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--authorization-config=" + authorizationConfig(),
            "--enable-admission-plugins=NodeRestriction");

    /** {@code --authorization-config} with the chain {@code --authorization-mode=Node,RBAC} would build. */
    private static Path authorizationConfig() {
        try {
            Path file = Files.createTempFile("kapi-authz-", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, """
                    apiVersion: apiserver.config.k8s.io/v1
                    kind: AuthorizationConfiguration
                    authorizers:
                    - {type: Node, name: node}
                    - {type: RBAC, name: rbac}
                    """);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private final Identities as = new Identities(KAPI);

    @BeforeAll
    static void objects() {
        Kubectl admin = KAPI.kubectl();
        admin.run("create", "namespace", "app").assertOk();
        for (String node : List.of("n1", "n2")) {
            admin.runWithInput("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + node + "\"}}",
                    "create", "-f", "-").assertOk();
        }
        admin.run("create", "secret", "generic", "db", "-n", "app", "--from-literal=p=q").assertOk();
        admin.run("create", "secret", "generic", "unrelated", "-n", "app", "--from-literal=p=q").assertOk();
        admin.run("create", "configmap", "settings", "-n", "app", "--from-literal=a=b").assertOk();
        admin.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: app}
                spec:
                  nodeName: n1
                  containers:
                  - name: c
                    image: nginx
                    envFrom: [{secretRef: {name: db}}]
                  volumes: [{name: s, configMap: {name: settings}}]
                """, "apply", "-f", "-").assertOk();
        admin.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: far, namespace: app}
                spec:
                  nodeName: n2
                  containers: [{name: c, image: nginx}]
                """, "apply", "-f", "-").assertOk();
    }

    @Test
    @DisplayName("a node's certificate reads its pods' secrets and configmaps, not others, nor another node's")
    void certificate() throws InterruptedException {
        Kubectl n1 = as.certificate("system:node:n1", List.of("system:nodes"));
        WAIT.poll(() -> n1.run("get", "secret", "db", "-n", "app", "-o", "name"), r -> r.exitCode() == 0).assertOk();
        n1.run("get", "configmap", "settings", "-n", "app", "-o", "name").assertOk();
        n1.run("get", "pod", "web", "-n", "app", "-o", "name").assertOk();
        Kubectl.Result other = n1.run("get", "secret", "unrelated", "-n", "app").assertFailed();
        assertTrue(other.stderr().contains("Error from server (Forbidden): secrets \"unrelated\" is forbidden: User "
                + "\"system:node:n1\" cannot get resource \"secrets\" in API group \"\" in the namespace \"app\": no "
                + "relationship found between node 'n1' and this object"), other.toString());
        Kubectl.Result list = n1.run("get", "secrets", "-n", "app").assertFailed();
        assertTrue(list.stderr().contains("cannot list resource \"secrets\" in API group \"\" in the namespace \"app\": "
                + "No Object name found"), list.toString());
        Kubectl n2 = as.certificate("system:node:n2", List.of("system:nodes"));
        Kubectl.Result foreign = n2.run("get", "secret", "db", "-n", "app").assertFailed();
        assertTrue(foreign.stderr().contains("no relationship found between node 'n2' and this object"),
                foreign.toString());
        n1.run("get", "pods", "-A", "--field-selector=spec.nodeName=n1", "-o", "name").assertOk();
        Kubectl.Result all = n1.run("get", "pods", "-A").assertFailed();
        assertTrue(all.stderr().contains("can only list/watch pods with spec.nodeName field selector"), all.toString());
    }

    @Test
    @DisplayName("kubectl auth can-i, impersonating a node, answers as the Node authorizer decides")
    void canIImpersonated() throws InterruptedException {
        Kubectl admin = KAPI.kubectl();
        String[] node = {"--as=system:node:n1", "--as-group=system:nodes"};
        WAIT.poll(() -> admin.run(concat(node, "auth", "can-i", "get", "secret/db", "-n", "app")), r -> r.exitCode() == 0);
        assertEquals("yes", admin.run(concat(node, "auth", "can-i", "get", "secret/db", "-n", "app")).stdout().strip());
        assertEquals("no - no relationship found between node 'n1' and this object", admin.run(concat(node, "auth",
                "can-i", "get", "secret/unrelated", "-n", "app")).stdout().strip(), "kubectl shows the review's reason");
        assertEquals("no - can only read resources of this type", admin.run(concat(node, "auth", "can-i", "delete",
                "secret/db", "-n", "app")).stdout().strip());
        assertEquals("yes", admin.run(concat(node, "auth", "can-i", "list", "services")).stdout().strip());
        assertEquals("yes", admin.run(concat(node, "auth", "can-i", "get", "node/n1")).stdout().strip());
        assertEquals("no - node 'n1' cannot read 'n2', only its own Node object", admin.run(concat(node, "auth",
                "can-i", "get", "node/n2")).stdout().strip());
        assertEquals("no", admin.run(concat(node, "auth", "can-i", "create", "deployments")).stdout().strip());
        admin.run(concat(node, "get", "secret", "db", "-n", "app", "-o", "name")).assertOk();
        Kubectl.Result lease = admin.run(concat(node, "get", "lease", "n2", "-n", "kube-node-lease")).assertFailed();
        assertTrue(lease.stderr().contains("can only access node lease with the same name as the requesting node"),
                lease.toString());
    }

    @Test
    @DisplayName("NodeRestriction: a node labels its own Node, not another's, nor with restricted labels")
    void nodeRestriction() throws InterruptedException {
        Kubectl n1 = as.certificate("system:node:n1", List.of("system:nodes"));
        WAIT.poll(() -> n1.run("label", "node", "n1", "rack=r1"), r -> r.exitCode() == 0).assertOk();
        Kubectl.Result read = n1.run("label", "node", "n2", "rack=r1").assertFailed();
        assertTrue(read.stderr().contains("nodes \"n2\" is forbidden: User \"system:node:n1\" cannot get resource "
                + "\"nodes\" in API group \"\" at the cluster scope: node 'n1' cannot read 'n2', only its own Node object"),
                read.toString());
        Kubectl.Result other = n1.runWithInput("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":"
                + "\"n2\",\"labels\":{\"rack\":\"r1\"}}}", "replace", "--raw", "/api/v1/nodes/n2", "-f", "-")
                .assertFailed();
        assertTrue(other.stderr().contains("nodes \"n2\" is forbidden: node \"n1\" is not allowed to modify node \"n2\""),
                other.toString());
        Kubectl.Result restricted = n1.run("label", "node", "n1", "node-restriction.kubernetes.io/trusted=yes")
                .assertFailed();
        assertTrue(restricted.stderr().contains("nodes \"n1\" is forbidden: is not allowed to modify labels: "
                + "node-restriction.kubernetes.io/trusted"), restricted.toString());
        Kubectl.Result delete = n1.run("delete", "pod", "far", "-n", "app").assertFailed();
        assertTrue(delete.stderr().contains("pods \"Unknown\" is forbidden: node \"n1\" can only delete pods with "
                + "spec.nodeName set to itself"), delete.toString());
    }

    private static String[] concat(String[] first, String... rest) {
        String[] all = new String[first.length + rest.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }
}
