package io.kapi.certs;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The readers of untrusted ASN.1 (a CertificateSigningRequest's {@code spec.request} and
 * {@code status.certificate}: {@link Der}, {@link CertificateRequest}, {@link SubjectName} and the JDK parsers
 * behind {@link Pem}) fed valid DER broken every way a fuzzer would break it: cut at every length, every byte
 * flipped, every length rewritten to overflow, nesting 20,000 deep, integers and identifiers of a megabyte,
 * and random bytes. Each input must be read, or refused with an {@link IllegalArgumentException} (which the
 * callers answer 422 or 403 with): no other exception, no error, and promptly. Deterministic (fixed seed).
 */
@DisplayName("untrusted ASN.1 is read or refused with a 4xx, never anything else")
class DerFuzzTest {

    private static final long SEED = 20261205L;
    private static final List<byte[]> CSRS = new ArrayList<>();
    private static byte[] certificate;

    @BeforeAll
    static void inputs() throws Exception {
        KeyPair rsa = TestCsrs.keys("RSA", 2048);
        for (String pem : List.of(
                TestCsrs.pem("CN=bob,O=dev,O=ops"),
                TestCsrs.pem("CN=rsa", rsa, "SHA256withRSA"),
                TestCsrs.pem("CN=pss", rsa, "SHA256withRSAandMGF1"),
                TestCsrs.pem("CN=ed", TestCsrs.keys("Ed25519", 0), "Ed25519"))) {
            CSRS.add(Pem.firstBlock(pem, "CERTIFICATE REQUEST"));
        }
        certificate = TestCertificates.ca("fuzz").certificate().getEncoded();
    }

    /** Reads {@code der} as a CSR and as a certificate every way the server does; fails on anything but IAE. */
    private static void readAll(String what, byte[] der) {
        String csr = pem("CERTIFICATE REQUEST", der);
        String cert = pem("CERTIFICATE", der);
        List<Consumer<byte[]>> readers = List.of(
                bytes -> CertificateRequest.check(csr),
                bytes -> SubjectName.ofCertificateRequest(csr),
                bytes -> Pem.certificateChainProblem(cert),
                DerFuzzTest::walk);
        for (Consumer<byte[]> reader : readers) {
            try {
                reader.accept(der);
            } catch (IllegalArgumentException expected) {
                // refused: the callers answer 4xx
            } catch (Throwable t) {
                fail(what + ": " + t, t);
            }
        }
    }

    /** Every element of {@code der}, without recursion. */
    private static void walk(byte[] der) {
        List<Der.Element> open = new ArrayList<>(List.of(Der.read(der)));
        while (!open.isEmpty()) {
            Der.Element e = open.removeLast();
            if ((e.tag() & 0x20) != 0) {
                open.addAll(e.children());
            } else {
                switch (e.tag()) {
                    case Der.INTEGER -> e.integer();
                    case Der.OID -> e.oid();
                    case Der.BIT_STRING -> e.bitStringBytes();
                    default -> e.string();
                }
            }
        }
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static List<byte[]> inputsUnderTest() {
        List<byte[]> all = new ArrayList<>(CSRS);
        all.add(certificate);
        return all;
    }

    @Test
    @DisplayName("cut at every length")
    void truncations() {
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (byte[] der : inputsUnderTest()) {
                for (int n = 0; n < der.length; n++) {
                    readAll("truncated to " + n, java.util.Arrays.copyOf(der, n));
                }
            }
        });
    }

    @Test
    @DisplayName("every byte flipped, zeroed and set to a long-form length")
    void flips() {
        assertTimeoutPreemptively(Duration.ofSeconds(180), () -> {
            for (byte[] der : inputsUnderTest()) {
                for (int i = 0; i < der.length; i++) {
                    for (int value : new int[] {der[i] ^ 0xff, 0x00, 0x80, 0x84, 0xff}) {
                        byte[] changed = der.clone();
                        changed[i] = (byte) value;
                        readAll("byte " + i + " set to " + value, changed);
                    }
                }
            }
        });
    }

    @Test
    @DisplayName("every length rewritten to overflow, to the indefinite form, or past the end")
    void lengths() {
        byte[][] forms = {
                {(byte) 0x84, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff},
                {(byte) 0x84, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff},
                {(byte) 0x84, (byte) 0x80, 0, 0, 0},
                {(byte) 0x88, 0, 0, 0, 0, 0, 0, 0, 1},
                {(byte) 0x85, 1, 0, 0, 0, 0},
                {(byte) 0x80},
                {(byte) 0x81, 0},
                {(byte) 0x82, (byte) 0xff, (byte) 0xff},
                {(byte) 0xff}};
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (byte[] der : inputsUnderTest()) {
                for (int at : lengthOffsets(der)) {
                    int octets = (der[at] & 0x80) == 0 ? 1 : 1 + (der[at] & 0x7f);
                    for (byte[] form : forms) {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        out.write(der, 0, at);
                        out.writeBytes(form);
                        out.write(der, at + octets, der.length - at - octets);
                        readAll("length at " + at + " rewritten", out.toByteArray());
                    }
                }
            }
        });
    }

    /** Where the length of each element of {@code der} starts. */
    private static List<Integer> lengthOffsets(byte[] der) {
        List<Integer> offsets = new ArrayList<>();
        List<Der.Element> open = new ArrayList<>(List.of(Der.read(der)));
        while (!open.isEmpty()) {
            Der.Element e = open.removeLast();
            int header = headerLength(e.end() - e.start());
            offsets.add(e.start() - header + 1);
            if ((e.tag() & 0x20) != 0) {
                open.addAll(e.children());
            }
        }
        return offsets;
    }

    private static int headerLength(int contentLength) {
        return header(contentLength).length;
    }

    @Test
    @DisplayName("a subject nested 20,000 deep, a megabyte integer, a megabyte identifier, 100,000 attributes")
    void outsized() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            byte[] nested = nested(20_000, Der.utf8("x"));
            readAll("nested subject", csr(nested, Der.integer(BigInteger.ZERO)));
            readAll("nested everything", nested(20_000, Der.nul()));
            byte[] hugeInteger = Der.integer(BigInteger.ONE.shiftLeft(8 * 1024 * 1024 - 2));
            readAll("megabyte version", csr(Der.sequence(), hugeInteger));
            byte[] hugeOid = Der.tlv(Der.OID, repeated((byte) 0x81, 1 << 20, (byte) 0x01));
            readAll("megabyte identifier arc", csr(Der.sequence(Der.set(Der.sequence(hugeOid, Der.utf8("x")))),
                    Der.integer(BigInteger.ZERO)));
            byte[] manyArcs = Der.tlv(Der.OID, repeated((byte) 0x01, 1 << 20, (byte) 0x01));
            readAll("a million arcs", csr(Der.sequence(Der.set(Der.sequence(manyArcs, Der.utf8("x")))),
                    Der.integer(BigInteger.ZERO)));
            List<byte[]> rdns = new ArrayList<>();
            for (int i = 0; i < 100_000; i++) {
                rdns.add(Der.set(Der.sequence(Der.oid("2.5.4.10"), Der.utf8("o" + i))));
            }
            readAll("100,000 organizations", csr(Der.sequence(rdns), Der.integer(BigInteger.ZERO)));
            readAll("a megabyte RSA modulus", rsaCsr(BigInteger.ONE.shiftLeft(8 * 1024 * 1024).add(BigInteger.ONE)));
            readAll("a megabyte RSA exponent", rsaCsr(BigInteger.ONE.shiftLeft(2048).add(BigInteger.ONE),
                    BigInteger.ONE.shiftLeft(8 * 1024 * 1024).add(BigInteger.ONE)));
        });
    }

    @Test
    @DisplayName("random bytes, and random splices of valid DER")
    void random() {
        Random random = new Random(SEED);
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int i = 0; i < 5_000; i++) {
                byte[] noise = new byte[random.nextInt(64)];
                random.nextBytes(noise);
                if (noise.length > 0 && random.nextBoolean()) {
                    noise[0] = 0x30;
                }
                readAll("noise " + i, noise);
                byte[] base = inputsUnderTest().get(random.nextInt(inputsUnderTest().size()));
                byte[] spliced = base.clone();
                int from = random.nextInt(spliced.length);
                int n = random.nextInt(Math.min(16, spliced.length - from) + 1);
                for (int k = 0; k < n; k++) {
                    spliced[from + k] = (byte) random.nextInt(256);
                }
                readAll("splice " + i, spliced);
            }
        });
    }

    @Test
    @DisplayName("through the API, hostile requests are 422 (validation) or 403 (subject restriction), never 5xx")
    void throughTheApi() throws Exception {
        byte[] valid = CSRS.getFirst();
        byte[] overflow = valid.clone();
        overflow[1] = (byte) 0x84;
        List<byte[]> hostile = List.of(java.util.Arrays.copyOf(valid, valid.length / 2), overflow,
                nested(20_000, Der.nul()), csr(nested(20_000, Der.utf8("x")), Der.integer(BigInteger.ZERO)),
                csr(Der.sequence(), Der.integer(BigInteger.ONE.shiftLeft(8 * 1024 * 1024 - 2))), new byte[0]);
        try (io.kapi.harness.ApiHarness api = new io.kapi.harness.ApiHarness()) {
            int i = 0;
            for (byte[] der : hostile) {
                for (String signer : List.of("example.com/signer", "kubernetes.io/kube-apiserver-client")) {
                    String request = Base64.getEncoder().encodeToString(pem("CERTIFICATE REQUEST", der)
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    io.kapi.harness.ApiHarness.Reply r = api.post("/apis/certificates.k8s.io/v1/certificatesigningrequests",
                            "{\"metadata\":{\"name\":\"h" + i++ + "\"},\"spec\":{\"request\":\"" + request
                                    + "\",\"signerName\":\"" + signer + "\",\"usages\":[\"client auth\"]}}");
                    if (r.code() != 422 && r.code() != 403) {
                        fail("hostile CSR " + (i - 1) + " for " + signer + ": " + r.code() + " "
                                + r.text().substring(0, Math.min(300, r.text().length())));
                    }
                }
            }
        }
    }

    /** A CSR shaped DER whose request info holds {@code version} and {@code subject}, then a real key. */
    private static byte[] csr(byte[] subject, byte[] version) {
        Der.Element real = Der.read(CSRS.getFirst());
        byte[] keyInfo = real.child(0).child(2).encoded();
        byte[] info = Der.sequence(version, subject, keyInfo, Der.explicit(0, new byte[0]));
        return Der.sequence(info, real.child(1).encoded(), real.child(2).encoded());
    }

    private static byte[] rsaCsr(BigInteger modulus) {
        return rsaCsr(modulus, BigInteger.valueOf(65537));
    }

    private static byte[] rsaCsr(BigInteger modulus, BigInteger exponent) {
        byte[] key = Der.sequence(Der.sequence(Der.oid("1.2.840.113549.1.1.1"), Der.nul()),
                Der.bits(Der.sequence(Der.integer(modulus), Der.integer(exponent))));
        byte[] info = Der.sequence(Der.integer(BigInteger.ZERO), Der.sequence(), key, Der.explicit(0, new byte[0]));
        return Der.sequence(info, Der.sequence(Der.oid("1.2.840.113549.1.1.11"), Der.nul()), Der.bits(new byte[256]));
    }

    /** {@code inner} inside {@code depth} SEQUENCEs, written in one pass. */
    private static byte[] nested(int depth, byte[] inner) {
        int[] lengths = new int[depth];
        int length = inner.length;
        for (int i = depth - 1; i >= 0; i--) {
            lengths[i] = length;
            length += header(length).length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(length);
        for (int i = 0; i < depth; i++) {
            out.writeBytes(header(lengths[i]));
        }
        out.writeBytes(inner);
        return out.toByteArray();
    }

    /** A SEQUENCE's tag and length, for content of {@code length} bytes. */
    private static byte[] header(int length) {
        if (length < 0x80) {
            return new byte[] {Der.SEQUENCE, (byte) length};
        }
        int octets = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
        byte[] h = new byte[2 + octets];
        h[0] = Der.SEQUENCE;
        h[1] = (byte) (0x80 | octets);
        for (int i = 0; i < octets; i++) {
            h[2 + i] = (byte) (length >>> (8 * (octets - 1 - i)));
        }
        return h;
    }

    private static byte[] repeated(byte fill, int count, byte last) {
        byte[] b = new byte[count + 1];
        java.util.Arrays.fill(b, fill);
        b[count] = last;
        return b;
    }
}
