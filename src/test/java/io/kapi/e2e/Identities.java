package io.kapi.e2e;

import io.kapi.certs.Pem;
import io.kapi.certs.TestCertificates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * kubectl as other users of a running Kapi: each call writes a kubeconfig with the server's address and
 * CA and one credential (a bearer token, or a client certificate), and returns kubectl pointed at it.
 */
final class Identities {

    private final KapiExtension kapi;
    private int written;

    Identities(KapiExtension kapi) {
        this.kapi = kapi;
    }

    /** kubectl sending {@code token} as its bearer token (and no client certificate). */
    Kubectl token(String token) {
        return write("    token: " + token + "\n");
    }

    /** The cluster CA of the server's data directory, with its key. */
    TestCertificates.Cert clusterCa() {
        try {
            Path dir = kapi.kapi().dataDir();
            return new TestCertificates.Cert(Pem.certificates(Files.readString(dir.resolve("ca.crt"))).getFirst(),
                    Pem.privateKey(Files.readString(dir.resolve("ca.key"))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** kubectl with a client certificate for {@code user} in {@code groups}, signed by the cluster CA. */
    Kubectl certificate(String user, List<String> groups) {
        try {
            return certificate(TestCertificates.client(clusterCa(), user, groups));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** kubectl with the given client certificate. */
    Kubectl certificate(TestCertificates.Cert cert) {
        return write("    client-certificate-data: " + b64(Pem.encode(cert.certificate())) + "\n"
                + "    client-key-data: " + b64(Pem.encode(cert.key())) + "\n");
    }

    private synchronized Kubectl write(String user) {
        Kubeconfig admin = kapi.kapi().kubeconfig();
        String text = """
                apiVersion: v1
                kind: Config
                clusters:
                - cluster:
                    certificate-authority-data: %s
                    server: %s
                  name: kapi
                contexts:
                - context: {cluster: kapi, user: someone}
                  name: someone
                current-context: someone
                users:
                - name: someone
                  user:
                %s""".formatted(b64(admin.caPem()), admin.server(), user);
        try {
            Path file = kapi.kapi().dataDir().resolve("identity-" + (++written) + ".kubeconfig");
            Files.writeString(file, text);
            return kapi.kubectlWith(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }
}
