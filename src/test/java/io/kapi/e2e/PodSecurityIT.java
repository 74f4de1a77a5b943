package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PodSecurity in {@code bin/kapi} alone, tried with kubectl as a new user would: namespace labels decide what
 * is refused and what is warned about, in kube's words as kubectl prints them.
 */
@DisplayName("PodSecurity with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class PodSecurityIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(200));

    private static final String RESTRICTED_PLAIN = "allowPrivilegeEscalation != false (container \"%1$s\" must set "
            + "securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"%1$s\" must set "
            + "securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container \"%1$s\" must set "
            + "securityContext.runAsNonRoot=true), seccompProfile (pod or container \"%1$s\" must set "
            + "securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")";

    private static Kubectl kubectl() {
        return KAPI.kubectl();
    }

    private static void namespace(String name) throws InterruptedException {
        kubectl().run("create", "namespace", name).assertOk();
        WAIT.until("the default service account", () -> kubectl().run("get", "serviceaccount", "default", "-n", name)
                .exitCode() == 0);
    }

    @Test
    @DisplayName("baseline enforce refuses a privileged pod; restricted warn warns about a plain one")
    void enforceAndWarn() throws Exception {
        namespace("psa");
        kubectl().run("label", "namespace", "psa", "pod-security.kubernetes.io/enforce=baseline",
                "pod-security.kubernetes.io/warn=restricted").assertOk();
        Kubectl.Result denied = kubectl().run("run", "priv", "--image=nginx", "--privileged", "-n", "psa").assertFailed();
        assertEquals("Error from server (Forbidden): pods \"priv\" is forbidden: violates PodSecurity \"baseline:latest\": "
                + "privileged (container \"priv\" must not set securityContext.privileged=true)", denied.stderr().strip(),
                denied.toString());
        Kubectl.Result warned = kubectl().run("run", "plain", "--image=nginx", "-n", "psa").assertOk();
        assertEquals("Warning: would violate PodSecurity \"restricted:latest\": " + RESTRICTED_PLAIN.formatted("plain"),
                warned.stderr().strip(), warned.toString());
        Kubectl.Result deployment = kubectl().run("create", "deployment", "web", "--image=nginx", "-n", "psa").assertOk();
        assertEquals("Warning: would violate PodSecurity \"restricted:latest\": " + RESTRICTED_PLAIN.formatted("nginx"),
                deployment.stderr().strip(), deployment.toString());
    }

    @Test
    @DisplayName("tightening enforce warns about existing pods; a label that does not parse is refused")
    void relabel() throws Exception {
        namespace("relabel");
        kubectl().run("run", "old", "--image=nginx", "-n", "relabel").assertOk();
        Kubectl.Result tightened = kubectl().run("label", "namespace", "relabel",
                "pod-security.kubernetes.io/enforce=restricted").assertOk();
        assertEquals("Warning: existing pods in namespace \"relabel\" violate the new PodSecurity enforce level "
                + "\"restricted:latest\"\nWarning: old: allowPrivilegeEscalation != false, unrestricted capabilities, "
                + "runAsNonRoot != true, seccompProfile", tightened.stderr().strip(), tightened.toString());
        Kubectl.Result bad = kubectl().run("label", "namespace", "relabel", "--overwrite",
                "pod-security.kubernetes.io/enforce=strict").assertFailed();
        assertEquals("The Namespace \"relabel\" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: "
                + "Invalid value: \"strict\": must be one of privileged, baseline, restricted", bad.stderr().strip(),
                bad.toString());
        Kubectl.Result refused = kubectl().run("run", "new", "--image=nginx", "-n", "relabel").assertFailed();
        assertEquals("Error from server (Forbidden): pods \"new\" is forbidden: violates PodSecurity \"restricted:latest\": "
                + RESTRICTED_PLAIN.formatted("new"), refused.stderr().strip(), refused.toString());
    }
}
