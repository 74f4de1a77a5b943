package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A kube-apiserver command line as kubeadm writes it in its static pod (less the etcd and TLS flags,
 * whose files a kubeadm host has: Kapi makes its own certificates and keeps its store), plus the flags
 * the issue names, starts Kapi; the flags it does not act on are logged once.
 */
@DisplayName("a kubeadm-style command line")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class KubeadmFlagsIT {

    static final List<String> KUBEADM = List.of(
            "--advertise-address=127.0.0.1", "--allow-privileged=true", "--authorization-mode=Node,RBAC",
            "--enable-admission-plugins=NodeRestriction", "--enable-bootstrap-token-auth=true",
            "--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt", "--etcd-certfile=/etc/kubernetes/pki/apiserver-etcd-client.crt",
            "--etcd-keyfile=/etc/kubernetes/pki/apiserver-etcd-client.key",
            "--kubelet-client-certificate=/etc/kubernetes/pki/apiserver-kubelet-client.crt",
            "--kubelet-client-key=/etc/kubernetes/pki/apiserver-kubelet-client.key",
            "--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname",
            "--proxy-client-cert-file=/etc/kubernetes/pki/front-proxy-client.crt",
            "--proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key",
            "--requestheader-allowed-names=front-proxy-client",
            "--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt",
            "--requestheader-extra-headers-prefix=X-Remote-Extra-", "--requestheader-group-headers=X-Remote-Group",
            "--requestheader-username-headers=X-Remote-User",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
            "--service-account-key-file=/etc/kubernetes/pki/sa.pub",
            "--service-account-signing-key-file=/etc/kubernetes/pki/sa.key",
            "--service-cluster-ip-range=10.96.0.0/12",
            "--profiling=false", "--endpoint-reconciler-type=lease", "--v=2");

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension(KUBEADM.toArray(String[]::new));

    @Test
    @DisplayName("starts and serves kubectl; the ignored flags are logged once, by name")
    void starts() throws Exception {
        Kubectl.Result r = KAPI.kubectl().run("get", "ns", "kube-system", "-o", "name").assertOk();
        assertEquals("namespace/kube-system", r.stdout().strip());
        List<String> log = Files.readAllLines(KAPI.kapi().logFile());
        List<String> ignored = log.stream().filter(l -> l.contains("Flags accepted but not implemented by Kapi")).toList();
        assertEquals(1, ignored.size(), String.join("\n", log));
        for (String flag : List.of("--allow-privileged", "--enable-bootstrap-token-auth", "--profiling",
                "--endpoint-reconciler-type", "--requestheader-client-ca-file", "--authorization-mode")) {
            assertTrue(ignored.getFirst().contains(flag + " ") || ignored.getFirst().endsWith(flag), flag + " in " + ignored);
        }
    }
}
