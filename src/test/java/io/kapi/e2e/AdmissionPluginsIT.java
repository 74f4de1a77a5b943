package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The built-in plugins in {@code bin/kapi} alone, tried with kubectl as a new user would: a new
 * namespace's pod gets the default service account and its token volume, the LimitRange's defaults, and
 * (with {@code --enable-admission-plugins=AlwaysPullImages,PodNodeSelector}) pull policy Always and the
 * namespace's node selector; a quota of 12 configmaps refuses the 13th.
 */
@DisplayName("built-in admission plugins with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class AdmissionPluginsIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--enable-admission-plugins=AlwaysPullImages,PodNodeSelector");

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(200));

    private static Kubectl kubectl() {
        return KAPI.kubectl();
    }

    @Test
    @DisplayName("a quota of 12 configmaps refuses the 13th (kube-root-ca.crt counts)")
    void quota() throws Exception {
        kubectl().run("create", "namespace", "quota").assertOk();
        WAIT.until("kube-root-ca.crt", () -> kubectl().run("get", "configmap", "kube-root-ca.crt", "-n", "quota").exitCode() == 0);
        kubectl().run("create", "quota", "q", "--hard=count/configmaps=12", "-n", "quota").assertOk();
        kubectl().run("create", "quota", "probe", "--hard=secrets=0", "-n", "quota").assertOk();
        WAIT.until("the quotas", () -> kubectl().run("create", "secret", "generic", "probe", "--dry-run=server",
                "-n", "quota").exitCode() != 0);
        for (int i = 2; i <= 12; i++) {
            kubectl().run("create", "configmap", "c" + i, "-n", "quota").assertOk();
        }
        Kubectl.Result r = kubectl().run("create", "configmap", "c13", "-n", "quota").assertFailed();
        assertEquals("error: failed to create configmap: configmaps \"c13\" is forbidden: exceeded quota: q, requested: "
                + "count/configmaps=1, used: count/configmaps=12, limited: count/configmaps=12", r.stderr().strip(),
                r.toString());
    }

    @Test
    @DisplayName("a new namespace's pod: default service account and token, LimitRange defaults, Always, node selector")
    void podDefaults() throws Exception {
        kubectl().runWithInput("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shaped\n  annotations:\n"
                + "    scheduler.alpha.kubernetes.io/node-selector: env=prod\n", "create", "-f", "-").assertOk();
        kubectl().runWithInput("apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: limits\n  namespace: shaped\n"
                + "spec:\n  limits:\n  - type: Container\n    default:\n      memory: 256Mi\n    defaultRequest:\n"
                + "      memory: 128Mi\n", "create", "-f", "-").assertOk();
        String[] run = {"run", "p", "--image=nginx", "--image-pull-policy=IfNotPresent", "-n", "shaped"};
        WAIT.until("the default service account and the LimitRange", () -> {
            Kubectl.Result dry = kubectl().run(concat(run, "--dry-run=server", "-o", "jsonpath={.metadata.annotations}"));
            return dry.exitCode() == 0 && dry.stdout().contains("kubernetes.io/limit-ranger");
        });
        kubectl().run(run).assertOk();
        String spec = "-o=jsonpath={.spec.serviceAccountName} {.spec.volumes[0].name} "
                + "{.spec.containers[0].imagePullPolicy} {.spec.nodeSelector.env} "
                + "{.spec.containers[0].resources.limits.memory} {.spec.containers[0].resources.requests.memory}";
        String got = kubectl().run("get", "pod", "p", "-n", "shaped", spec).assertOk().stdout();
        assertTrue(got.matches("default kube-api-access-[a-z0-9]{5} Always prod 256Mi 128Mi"), got);
    }

    @Test
    @DisplayName("a claim gets the default StorageClass; deleting it waits for the pod that uses it (pvc-protection)")
    void storageProtection() throws Exception {
        kubectl().runWithInput("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\n"
                + "  annotations:\n    storageclass.kubernetes.io/is-default-class: \"true\"\nprovisioner: example.com/p\n",
                "create", "-f", "-").assertOk();
        kubectl().runWithInput("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n"
                + "  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n", "create", "-f", "-")
                .assertOk();
        assertEquals("standard kubernetes.io/pvc-protection", kubectl().run("get", "pvc", "data",
                "-o=jsonpath={.spec.storageClassName} {.metadata.finalizers[0]}").assertOk().stdout());
        kubectl().runWithInput("apiVersion: v1\nkind: Pod\nmetadata:\n  name: user\nspec:\n  containers:\n"
                + "  - name: c\n    image: nginx\n    volumeMounts: [{name: d, mountPath: /d}]\n  volumes:\n"
                + "  - name: d\n    persistentVolumeClaim: {claimName: data}\n", "create", "-f", "-").assertOk();
        kubectl().run("delete", "pvc", "data", "--wait=false").assertOk();
        WAIT.until("the claim marked for deletion", () -> !kubectl().run("get", "pvc", "data",
                "-o=jsonpath={.metadata.deletionTimestamp}").stdout().isEmpty());
        assertEquals("kubernetes.io/pvc-protection", kubectl().run("get", "pvc", "data",
                "-o=jsonpath={.metadata.finalizers[0]}").assertOk().stdout(), "kept while the pod uses it");
        kubectl().run("delete", "pod", "user", "--grace-period=0", "--force").exitCode();
        WAIT.until("the claim gone once no pod uses it", () -> kubectl().run("get", "pvc", "data").exitCode() != 0);
    }

    @Test
    @DisplayName("a compute quota: status.used kept by the controller, exceeded in kube's words, released on delete")
    void computeQuota() throws Exception {
        kubectl().run("create", "namespace", "compute").assertOk();
        WAIT.until("the default service account", () -> kubectl().run("get", "serviceaccount", "default", "-n", "compute")
                .exitCode() == 0);
        kubectl().run("create", "quota", "compute", "--hard=requests.cpu=1,pods=2", "-n", "compute").assertOk();
        WAIT.until("the controller's status", () -> "0 0".equals(kubectl().run("get", "quota", "compute", "-n", "compute",
                "-o=jsonpath={.status.used.pods} {.status.used.requests\\.cpu}").stdout()));
        String pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\nspec:\n  containers:\n  - name: c\n"
                + "    image: nginx\n    resources:\n      requests: {cpu: %s}\n";
        kubectl().runWithInput(pod.formatted("a", "600m"), "create", "-f", "-", "-n", "compute").assertOk();
        Kubectl.Result over = kubectl().runWithInput(pod.formatted("b", "500m"), "create", "-f", "-", "-n", "compute")
                .assertFailed();
        assertEquals("Error from server (Forbidden): error when creating \"STDIN\": pods \"b\" is forbidden: exceeded "
                + "quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1",
                over.stderr().strip(), over.toString());
        kubectl().run("delete", "pod", "a", "-n", "compute", "--grace-period=0", "--force").exitCode();
        WAIT.until("the release of the deleted pod's charge", () -> "0 0".equals(kubectl().run("get", "quota", "compute",
                "-n", "compute", "-o=jsonpath={.status.used.pods} {.status.used.requests\\.cpu}").stdout()));
        kubectl().runWithInput(pod.formatted("b", "500m"), "create", "-f", "-", "-n", "compute").assertOk();
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
