package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The errors kubectl shows, worded as kube-apiserver words them, and server-side field validation. */
@DisplayName("errors as kubectl shows them")
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hung request or watch fails one test, not the suite
final class ErrorsIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    static final String RFC1123 = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
            + "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
            + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    private static String configMap(String name) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  k: v\n";
    }

    private static Kubectl kubectl() {
        return KAPI.kubectl();
    }

    @Test
    @DisplayName("create -f of an existing object: AlreadyExists")
    void alreadyExistsFromFile() {
        kubectl().runWithInput(configMap("c1"), "create", "-f", "-").assertOk();
        Kubectl.Result r = kubectl().runWithInput(configMap("c1"), "create", "-f", "-").assertFailed();
        assertEquals("Error from server (AlreadyExists): error when creating \"STDIN\": configmaps \"c1\" already exists",
                r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("create configmap of an existing name: AlreadyExists")
    void alreadyExistsImperative() {
        kubectl().run("create", "configmap", "c2", "--from-literal=a=b").assertOk();
        Kubectl.Result r = kubectl().run("create", "configmap", "c2", "--from-literal=a=b").assertFailed();
        assertEquals("error: failed to create configmap: configmaps \"c2\" already exists", r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("get of a missing object: NotFound")
    void notFound() {
        Kubectl.Result r = kubectl().run("get", "configmap", "nope").assertFailed();
        assertEquals("Error from server (NotFound): configmaps \"nope\" not found", r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("delete of a missing object: NotFound")
    void deleteNotFound() {
        Kubectl.Result r = kubectl().run("delete", "configmap", "nope").assertFailed();
        assertEquals("Error from server (NotFound): configmaps \"nope\" not found", r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("an invalid name: Invalid, naming metadata.name and the RFC 1123 rule")
    void invalidName() {
        Kubectl.Result r = kubectl().runWithInput(configMap("Bad_Name"), "create", "-f", "-").assertFailed();
        assertEquals("The ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": " + RFC1123,
                r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("malformed JSON posted raw: BadRequest")
    void malformedJson() throws IOException {
        Path body = Files.createTempFile(KAPI.kapi().dataDir().getParent(), "malformed-", ".json");
        Files.writeString(body, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"broken\"");
        Kubectl.Result r = kubectl().run("create", "--raw", "/api/v1/namespaces/default/configmaps", "-f", body.toString())
                .assertFailed();
        assertTrue(r.stderr().startsWith("Error from server (BadRequest): "), r.toString());
        kubectl().run("get", "configmap", "broken").assertFailed();
    }

    @Test
    @DisplayName("an unknown kind: kubectl cannot map it (no matches for kind)")
    void unknownKind() {
        Kubectl.Result r = kubectl().runWithInput("apiVersion: v1\nkind: Frobnicator\nmetadata:\n  name: f1\n",
                "apply", "-f", "-").assertFailed();
        assertTrue(r.stderr().contains("no matches for kind \"Frobnicator\" in version \"v1\""), r.toString());
        Kubectl.Result group = kubectl().runWithInput("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n",
                "create", "-f", "-").assertFailed();
        assertTrue(group.stderr().contains("no matches for kind \"Widget\" in version \"example.com/v1\""), group.toString());
    }

    @Test
    @DisplayName("an unknown resource type: the server doesn't have a resource type")
    void unknownResourceType() {
        Kubectl.Result r = kubectl().run("get", "frobnicators").assertFailed();
        assertEquals("error: the server doesn't have a resource type \"frobnicators\"", r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("create in a missing namespace: NotFound naming the namespace")
    void missingNamespace() {
        Kubectl.Result r = kubectl().runWithInput(configMap("c3"), "create", "-n", "x", "-f", "-").assertFailed();
        assertEquals("Error from server (NotFound): error when creating \"STDIN\": namespaces \"x\" not found",
                r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("a body over 3 MiB: RequestEntityTooLarge")
    void tooLarge() {
        String big = configMap("huge") + "  big: " + "x".repeat(4 * 1024 * 1024) + "\n";
        Kubectl.Result r = kubectl().runWithInput(big, "create", "-f", "-").assertFailed();
        assertEquals("Error from server (RequestEntityTooLarge): error when creating \"STDIN\": Request entity too large: "
                + "limit is 3145728", r.stderr().strip(), r.toString());
    }

    private static final String TYPO_DEPLOYMENT = Manifests.read("deployment.yaml")
            .replace("name: web\n", "name: NAME\n").replace("  replicas: 2", "  replicaz: 2");

    @Test
    @DisplayName("--validate=strict: an unknown field fails the create, naming the field")
    void strictValidation() {
        Kubectl.Result r = kubectl().runWithInput(TYPO_DEPLOYMENT.replace("NAME", "strict"),
                "create", "--validate=strict", "-f", "-").assertFailed();
        assertEquals("Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be "
                + "handled as a Deployment: strict decoding error: unknown field \"spec.replicaz\"", r.stderr().strip(),
                r.toString());
        kubectl().run("get", "deploy", "strict").assertFailed();
    }

    @Test
    @DisplayName("--validate=warn: an unknown field is dropped with a warning, and the object created")
    void warnValidation() {
        Kubectl.Result r = kubectl().runWithInput(TYPO_DEPLOYMENT.replace("NAME", "warned"),
                "create", "--validate=warn", "-f", "-").assertOk();
        assertEquals("deployment.apps/warned created", r.stdout().strip(), r.toString());
        assertEquals("Warning: unknown field \"spec.replicaz\"", r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("--validate=false: an unknown field is dropped silently")
    void ignoreValidation() {
        Kubectl.Result r = kubectl().runWithInput(TYPO_DEPLOYMENT.replace("NAME", "ignored"),
                "create", "--validate=false", "-f", "-").assertOk();
        assertEquals("deployment.apps/ignored created", r.stdout().strip(), r.toString());
        assertFalse(r.stderr().contains("replicaz"), r.toString());
        assertEquals("1", kubectl().run("get", "deploy", "ignored", "-o", "jsonpath={.spec.replicas}").assertOk().stdout(),
                "replicas defaulted to 1");
    }
}
