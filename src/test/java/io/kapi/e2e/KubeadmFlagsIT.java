package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A kube-apiserver command line as kubeadm writes it in its static pod, plus the flags the issue names,
 * starts Kapi; the flags it does not act on are logged once. The files the flags name are made as
 * kubeadm makes them (a {@code pki} directory of CAs, certificates and the service-account key pair,
 * by openssl); left out are {@code --etcd-servers} and the serving certificate, so that Kapi keeps its
 * own store and certificates.
 */
@DisplayName("a kubeadm-style command line")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class KubeadmFlagsIT {

    static final Path PKI = kubeadmPki();

    static final List<String> KUBEADM = List.of(
            "--advertise-address=127.0.0.1", "--allow-privileged=true", "--authorization-mode=Node,RBAC",
            "--enable-admission-plugins=NodeRestriction", "--enable-bootstrap-token-auth=true",
            "--etcd-cafile=" + PKI + "/etcd/ca.crt", "--etcd-certfile=" + PKI + "/apiserver-etcd-client.crt",
            "--etcd-keyfile=" + PKI + "/apiserver-etcd-client.key",
            "--kubelet-client-certificate=" + PKI + "/apiserver-kubelet-client.crt",
            "--kubelet-client-key=" + PKI + "/apiserver-kubelet-client.key",
            "--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname",
            "--proxy-client-cert-file=" + PKI + "/front-proxy-client.crt",
            "--proxy-client-key-file=" + PKI + "/front-proxy-client.key",
            "--requestheader-allowed-names=front-proxy-client",
            "--requestheader-client-ca-file=" + PKI + "/front-proxy-ca.crt",
            "--requestheader-extra-headers-prefix=X-Remote-Extra-", "--requestheader-group-headers=X-Remote-Group",
            "--requestheader-username-headers=X-Remote-User",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
            "--service-account-key-file=" + PKI + "/sa.pub",
            "--service-account-signing-key-file=" + PKI + "/sa.key",
            "--service-cluster-ip-range=10.96.0.0/12",
            "--profiling=false", "--endpoint-reconciler-type=lease", "--v=2");

    /** kubeadm's {@code /etc/kubernetes/pki}, in a temporary directory: real keys and certificates. */
    private static Path kubeadmPki() {
        try {
            Path pki = Files.createTempDirectory("kubeadm-pki");
            Files.createDirectories(pki.resolve("etcd"));
            ca(pki, "etcd/ca", "etcd-ca");
            ca(pki, "front-proxy-ca", "front-proxy-ca");
            for (String[] leaf : new String[][] {{"apiserver-etcd-client", "etcd/ca"},
                    {"apiserver-kubelet-client", "etcd/ca"}, {"front-proxy-client", "front-proxy-ca"}}) {
                openssl(pki, "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", leaf[0] + ".key",
                        "-out", leaf[0] + ".csr", "-subj", "/CN=" + leaf[0]);
                openssl(pki, "x509", "-req", "-in", leaf[0] + ".csr", "-CA", leaf[1] + ".crt", "-CAkey",
                        leaf[1] + ".key", "-CAcreateserial", "-days", "1", "-out", leaf[0] + ".crt");
            }
            openssl(pki, "genrsa", "-traditional", "-out", "sa.key", "2048");
            openssl(pki, "rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub");
            return pki;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void ca(Path pki, String name, String commonName) throws IOException {
        openssl(pki, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out",
                name + ".crt", "-days", "1", "-subj", "/CN=" + commonName);
    }

    private static void openssl(Path dir, String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IOException(command + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension(KUBEADM.toArray(String[]::new));

    @AfterAll
    static void removePki() throws IOException {
        try (var files = Files.walk(PKI)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @Test
    @DisplayName("starts and serves kubectl; the ignored flags are logged once, by name")
    void starts() throws Exception {
        Kubectl.Result r = KAPI.kubectl().run("get", "ns", "kube-system", "-o", "name").assertOk();
        assertEquals("namespace/kube-system", r.stdout().strip());
        List<String> log = Files.readAllLines(KAPI.kapi().logFile());
        List<String> ignored = log.stream().filter(l -> l.contains("Flags accepted but not implemented by Kapi")).toList();
        assertEquals(1, ignored.size(), String.join("\n", log));
        for (String flag : List.of("--authorization-mode", "--enable-bootstrap-token-auth",
                "--requestheader-client-ca-file", "--service-account-key-file", "--proxy-client-cert-file",
                "--proxy-client-key-file")) {
            assertTrue(!ignored.getFirst().contains(flag + " ") && !ignored.getFirst().endsWith(flag),
                    "Kapi acts on " + flag + ": " + ignored);
        }
        for (String flag : List.of("--allow-privileged", "--profiling", "--endpoint-reconciler-type")) {
            assertTrue(ignored.getFirst().contains(flag + " ") || ignored.getFirst().endsWith(flag), flag + " in " + ignored);
        }
    }

    @Test
    @DisplayName("publishes how aggregated API servers authenticate it in kube-system/extension-apiserver-authentication")
    void extensionApiserverAuthentication() throws Exception {
        var data = KAPI.kubectl().run("get", "configmap", "-n", "kube-system", "extension-apiserver-authentication",
                "-o", "json").assertOk().json().path("data");
        assertEquals("[\"front-proxy-client\"]", data.path("requestheader-allowed-names").asText());
        assertEquals("[\"X-Remote-User\"]", data.path("requestheader-username-headers").asText());
        assertEquals("[\"X-Remote-Group\"]", data.path("requestheader-group-headers").asText());
        assertEquals("[\"X-Remote-Extra-\"]", data.path("requestheader-extra-headers-prefix").asText());
        assertEquals(Files.readString(PKI.resolve("front-proxy-ca.crt")).replaceAll("\\s", ""),
                data.path("requestheader-client-ca-file").asText().replaceAll("\\s", ""));
        assertTrue(data.path("client-ca-file").asText().startsWith("-----BEGIN CERTIFICATE-----"), data.toString());
    }
}
