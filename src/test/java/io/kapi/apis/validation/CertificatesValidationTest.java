package io.kapi.apis.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.certs.TestCsrs;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** CertificateSigningRequests: kube's paths and messages (cases after kube's certificates validation_test.go). */
class CertificatesValidationTest {

    private static final String VALID_REQUEST = TestCsrs.request("CN=bob,O=dev");

    private static String csr(String request, String spec) {
        return """
                apiVersion: certificates.k8s.io/v1
                kind: CertificateSigningRequest
                metadata: {name: bob}
                spec:
                  request: %s
                %s""".formatted(request, spec);
    }

    private static String csr(String spec) {
        return csr(VALID_REQUEST, spec);
    }

    private static final String VALID_SPEC = "  signerName: example.com/signer\n  usages: [client auth]\n";

    @Test
    @DisplayName("a CSR signed by its own key (EC, RSA, RSA-PSS, Ed25519; SHA-1 too, as Go allows for CSRs) passes")
    void valid() {
        assertEquals(List.of(), Fixtures.create(csr(VALID_SPEC)));
        KeyPair rsa = TestCsrs.keys("RSA", 2048);
        for (String[] signed : List.of(
                new String[] {"SHA256withRSA", "rsa"}, new String[] {"SHA1withRSA", "rsa"},
                new String[] {"SHA256withRSAandMGF1", "rsa"}, new String[] {"SHA384withECDSA", "p384"},
                new String[] {"Ed25519", "ed25519"})) {
            KeyPair keys = switch (signed[1]) {
                case "rsa" -> rsa;
                case "p384" -> TestCsrs.ecKeys("secp384r1");
                default -> TestCsrs.keys("Ed25519", 0);
            };
            String request = base64(TestCsrs.pem("CN=bob", keys, signed[0]));
            assertEquals(List.of(), Fixtures.create(csr(request, VALID_SPEC)), signed[0]);
        }
    }

    @Test
    @DisplayName("a request that is no CSR, or not signed by its key, is Invalid with its bytes as Go prints them")
    void request() {
        String notPem = base64("hi");
        assertEquals(List.of("spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST"),
                Fixtures.create(csr(notPem, VALID_SPEC)));
        assertEquals(List.of("spec.request: Invalid value: []byte{}: PEM block type must be CERTIFICATE REQUEST"),
                Fixtures.create(csr("\"\"", VALID_SPEC)));
        List<String> missing = Fixtures.create("""
                apiVersion: certificates.k8s.io/v1
                kind: CertificateSigningRequest
                metadata: {name: bob}
                spec: {signerName: example.com/signer, usages: [client auth]}
                """);
        assertEquals(List.of("spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST"), missing);

        // another key's signature over the same request info
        String mine = TestCsrs.pem("CN=bob");
        String other = TestCsrs.pem("CN=bob");
        String forged = reSign(mine, other);
        List<String> errors = Fixtures.create(csr(base64(forged), VALID_SPEC));
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.getFirst().startsWith("spec.request: Invalid value: []byte{0x2d, 0x2d, 0x2d, 0x2d, 0x2d, 0x42"), errors.getFirst());
        assertTrue(errors.getFirst().endsWith("}: x509: ECDSA verification failure"), errors.getFirst());

        String garbage = base64("-----BEGIN CERTIFICATE REQUEST-----\naGVsbG8=\n-----END CERTIFICATE REQUEST-----\n");
        List<String> structural = Fixtures.create(csr(garbage, VALID_SPEC));
        assertTrue(structural.getFirst().contains(": asn1: structure error: "), structural.toString());
    }

    @Test
    @DisplayName("usages are required, from kube's list, and given once")
    void usages() {
        assertEquals(List.of("spec.usages: Required value"),
                Fixtures.create(csr("  signerName: example.com/signer\n")));
        List<String> errors = Fixtures.create(csr("  signerName: example.com/signer\n"
                + "  usages: [client auth, flying, client auth]\n"));
        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("spec.usages[1]: Unsupported value: \"flying\": supported values: \"any\", "
                + "\"cert sign\", \"client auth\", "), errors.get(0));
        assertTrue(errors.get(0).endsWith(", \"signing\", \"timestamping\""), errors.get(0));
        assertEquals("spec.usages[2]: Duplicate value: \"client auth\"", errors.get(1));
    }

    @Test
    @DisplayName("the signer is a domain/path name, not the legacy one; a duration is at least ten minutes")
    void signerAndDuration() {
        String usages = "  usages: [client auth]\n";
        assertEquals(List.of("spec.signerName: Required value"), Fixtures.create(csr(usages)));
        assertEquals(List.of("spec.signerName: Invalid value: \"signer\": must be a fully qualified domain and path "
                + "of the form 'example.com/signer-name'"), Fixtures.create(csr(usages + "  signerName: signer\n")));
        assertEquals(List.of("spec.signerName: Invalid value: \"example\": should be a domain with at least two "
                + "segments separated by dots"), Fixtures.create(csr(usages + "  signerName: example/signer\n")));
        assertEquals(List.of("spec.signerName: Invalid value: \"Example.com\": validating label \"Example\": "
                + BuiltinValidationTest.DNS_LABEL), Fixtures.create(csr(usages + "  signerName: Example.com/signer\n")));
        assertEquals(List.of("spec.signerName: Invalid value: \"kubernetes.io/legacy-unknown\": the legacy signerName "
                + "is not allowed via this API version"),
                Fixtures.create(csr(usages + "  signerName: kubernetes.io/legacy-unknown\n")));
        assertEquals(List.of(), Fixtures.create(csr(usages + "  signerName: kubernetes.io/kube-apiserver-client\n")));
        assertEquals(List.of("spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 "
                + "seconds (10 minutes)"), Fixtures.create(csr(VALID_SPEC + "  expirationSeconds: 599\n")));
        assertEquals(List.of(), Fixtures.create(csr(VALID_SPEC + "  expirationSeconds: 600\n")));
    }

    @Test
    @DisplayName("an update keeps what the stored object already had (unknown usages, the legacy signer); "
            + "conditions and an issued certificate are checked")
    void updates() {
        String legacy = csr("  signerName: kubernetes.io/legacy-unknown\n  usages: [flying, flying]\n");
        assertEquals(List.of(), Fixtures.update(legacy, legacy));
        String approvedAndDenied = csr(VALID_SPEC) + """
                status:
                  conditions:
                  - {type: Approved, status: "True"}
                  - {type: Denied, status: "False"}
                  - {type: Custom, status: Maybe}
                  - {type: Custom, status: "True"}
                """;
        assertEquals(List.of(
                "status.conditions[1].status: Unsupported value: \"False\": supported values: \"True\"",
                "status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied conditions are mutually exclusive",
                "status.conditions[2].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\"",
                "status.conditions[3].type: Duplicate value: \"Custom\""),
                Fixtures.update(approvedAndDenied, csr(VALID_SPEC)));
        String notACertificate = csr(VALID_SPEC) + "status: {certificate: " + base64("x") + "}\n";
        assertEquals(List.of("status.certificate: Invalid value: \"<certificate data>\": must contain at least one "
                + "CERTIFICATE PEM block"), Fixtures.update(notACertificate, csr(VALID_SPEC)));
        String issued = csr(VALID_SPEC) + "status: {certificate: " + TestCsrs.issuedCertificate("bob") + "}\n";
        assertEquals(List.of(), Fixtures.update(issued, csr(VALID_SPEC)));
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code request}'s info and algorithm with the signature of {@code other} (same subject, another key). */
    private static String reSign(String request, String other) {
        byte[] mine = der(request);
        byte[] theirs = der(other);
        // Both are SEQUENCE { info, algorithm, BIT STRING signature } of P-256 ECDSA; swap the last element.
        int mineSig = lastElementStart(mine);
        int theirSig = lastElementStart(theirs);
        byte[] body = new byte[mineSig - headerLength(mine) + theirs.length - theirSig];
        System.arraycopy(mine, headerLength(mine), body, 0, mineSig - headerLength(mine));
        System.arraycopy(theirs, theirSig, body, mineSig - headerLength(mine), theirs.length - theirSig);
        byte[] header = body.length < 0x80 ? new byte[] {0x30, (byte) body.length}
                : body.length < 0x100 ? new byte[] {0x30, (byte) 0x81, (byte) body.length}
                : new byte[] {0x30, (byte) 0x82, (byte) (body.length >> 8), (byte) body.length};
        byte[] all = new byte[header.length + body.length];
        System.arraycopy(header, 0, all, 0, header.length);
        System.arraycopy(body, 0, all, header.length, body.length);
        return "-----BEGIN CERTIFICATE REQUEST-----\n" + Base64.getMimeEncoder().encodeToString(all)
                + "\n-----END CERTIFICATE REQUEST-----\n";
    }

    private static byte[] der(String pem) {
        return Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", "").strip());
    }

    private static int headerLength(byte[] der) {
        int first = der[1] & 0xff;
        return first < 0x80 ? 2 : 2 + (first & 0x7f);
    }

    private static int lastElementStart(byte[] der) {
        int at = headerLength(der);
        int last = at;
        while (at < der.length) {
            last = at;
            int first = der[at + 1] & 0xff;
            int length = first;
            int lengthBytes = 0;
            if (first >= 0x80) {
                lengthBytes = first & 0x7f;
                length = 0;
                for (int i = 0; i < lengthBytes; i++) {
                    length = (length << 8) | (der[at + 2 + i] & 0xff);
                }
            }
            at += 2 + lengthBytes + length;
        }
        return last;
    }
}
