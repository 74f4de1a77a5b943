package io.kapi.certs;

import io.kapi.certs.CertificateIssuer.Issued;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The certificates Kapi makes for itself on first start, kept in the data directory and reused on
 * every later start:
 * <pre>
 *   ca.crt, ca.key               the cluster CA (10 years)
 *   apiserver.crt, apiserver.key the serving certificate, signed by the CA
 *   admin.crt, admin.key         CN=kubernetes-admin, O=system:masters
 *   admin.kubeconfig             everything kubectl needs, written on every start with the real port
 * </pre>
 * A leaf is issued again when it is missing, not signed by the CA, within 30 days of expiry, or (the
 * serving certificate) lacks one of the names asked for. Every file is mode 0600, as etcd keeps its
 * files: the directory is Kapi's private data, not a place to publish certificates from.
 *
 * <p>
 * Keys are P-256 (written as SEC1 {@code EC PRIVATE KEY} with their curve and public key; an earlier
 * Kapi's PKCS#8 files are read as well), except bin/kapi's admin key: RSA 2048, which every client
 * library reads ({@link KeyType}). An RSA key takes a second or more of CPU in a fresh JVM:
 * {@link #prepare} issues the admin certificate on its own thread while the caller goes on with the CA
 * and the serving certificate, which the listener needs first; the admin accessors wait for it.
 */
public final class LocalPki {

    private static final System.Logger LOG = System.getLogger(LocalPki.class.getName());
    private static final Duration RENEW_BEFORE = Duration.ofDays(30);
    public static final String ADMIN_USER = "kubernetes-admin";
    public static final String KUBECONFIG = "admin.kubeconfig";

    private final Path dataDir;
    private final TlsMaterial tls;
    private final CompletableFuture<Issued> admin;

    private LocalPki(Path dataDir, TlsMaterial tls, CompletableFuture<Issued> admin) {
        this.dataDir = dataDir;
        this.tls = tls;
        this.admin = admin;
    }

    /**
     * Loads the certificates in {@code dataDir}, creating or renewing what is missing or unfit; every
     * file exists when it returns.
     */
    public static LocalPki ensure(Path dataDir, ServingNames names) {
        return ensure(dataDir, names, KeyType.RSA_2048);
    }

    /** As {@link #ensure(Path, ServingNames)}, a new admin certificate getting a key of {@code adminKeys}. */
    public static LocalPki ensure(Path dataDir, ServingNames names, KeyType adminKeys) {
        LocalPki pki = prepare(dataDir, names, adminKeys);
        pki.adminCertificate();
        return pki;
    }

    /**
     * As {@link #ensure}, except that a missing or unfit admin certificate is still being issued (on a
     * virtual thread) when this returns: the CA and serving files exist, the admin files once
     * {@link #adminCertificate()}, {@link #adminKeyPem()} or {@link #writeKubeconfig} has returned.
     */
    public static LocalPki prepare(Path dataDir, ServingNames names) {
        return prepare(dataDir, names, KeyType.RSA_2048);
    }

    /** As {@link #prepare(Path, ServingNames)}, a new admin certificate getting a key of {@code adminKeys}. */
    public static LocalPki prepare(Path dataDir, ServingNames names, KeyType adminKeys) {
        try {
            if (Files.notExists(dataDir)) {
                Files.createDirectories(dataDir,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Issued ca = loadOrCreateCa(dataDir);
            Issued serving = load(dataDir, "apiserver", ca);
            if (serving == null || !covers(serving.certificate(), names)) {
                serving = store(dataDir, "apiserver", CertificateIssuer.serving(ca, "kube-apiserver", names));
            }
            Issued loaded = load(dataDir, "admin", ca);
            CompletableFuture<Issued> admin = loaded != null ? CompletableFuture.completedFuture(loaded)
                    : issueAdmin(dataDir, ca, adminKeys);
            TlsMaterial tls = new TlsMaterial(serving.key(), List.of(serving.certificate(), ca.certificate()),
                    List.of(ca.certificate()));
            return new LocalPki(dataDir, tls, admin);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up certificates in " + dataDir, e);
        }
    }

    private static CompletableFuture<Issued> issueAdmin(Path dir, Issued ca, KeyType keys) {
        CompletableFuture<Issued> issued = new CompletableFuture<>();
        Thread.ofVirtual().name("kapi-admin-certificate").start(() -> {
            try {
                issued.complete(store(dir, "admin", CertificateIssuer.client(ca, ADMIN_USER, List.of("system:masters"), keys)));
            } catch (IOException e) {
                issued.completeExceptionally(new UncheckedIOException("cannot set up certificates in " + dir, e));
            } catch (RuntimeException | Error e) {
                issued.completeExceptionally(e);
            }
        });
        return issued;
    }

    /** The directory the files live in. */
    public Path dataDir() {
        return dataDir;
    }

    /** The serving key and chain, with the CA as the only client CA. */
    public TlsMaterial tls() {
        return tls;
    }

    /** The admin client certificate (waits for it while it is being issued). */
    public X509Certificate adminCertificate() {
        return admin().certificate();
    }

    /** The admin certificate's private key, as PEM (waits for it while it is being issued). */
    public String adminKeyPem() {
        return keyPem(admin());
    }

    /** An EC key in SEC1 form with its curve and public key (what clients recognise as EC), RSA as PKCS#1. */
    private static String keyPem(Issued issued) {
        return issued.key() instanceof java.security.interfaces.ECPrivateKey ec
                ? Pem.encodeSec1(ec, issued.certificate().getPublicKey()) : Pem.encode(issued.key());
    }

    private Issued admin() {
        try {
            return admin.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("cannot issue the admin certificate in " + dataDir, e.getCause());
        }
    }

    /** The cluster CA. */
    public X509Certificate ca() {
        return tls.clientCas().getFirst();
    }

    /**
     * Writes {@code admin.kubeconfig} for the server at {@code serverUrl}, e.g.
     * {@code https://127.0.0.1:6443} (only if its content changed), and returns its absolute path.
     */
    public Path writeKubeconfig(String serverUrl) {
        Base64.Encoder b64 = Base64.getEncoder();
        String text = """
                apiVersion: v1
                kind: Config
                clusters:
                - cluster:
                    certificate-authority-data: %s
                    server: %s
                  name: kapi
                contexts:
                - context:
                    cluster: kapi
                    user: %s
                  name: %s@kapi
                current-context: %s@kapi
                preferences: {}
                users:
                - name: %s
                  user:
                    client-certificate-data: %s
                    client-key-data: %s
                """.formatted(b64.encodeToString(Pem.encode(ca()).getBytes(StandardCharsets.US_ASCII)), serverUrl,
                ADMIN_USER, ADMIN_USER, ADMIN_USER, ADMIN_USER,
                b64.encodeToString(Pem.encode(adminCertificate()).getBytes(StandardCharsets.US_ASCII)),
                b64.encodeToString(adminKeyPem().getBytes(StandardCharsets.US_ASCII)));
        Path file = dataDir.resolve(KUBECONFIG).toAbsolutePath();
        try {
            if (!Files.exists(file) || !Files.readString(file).equals(text)) {
                writeSecret(file, text);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    private static Issued loadOrCreateCa(Path dir) throws IOException {
        Path crt = dir.resolve("ca.crt");
        Path key = dir.resolve("ca.key");
        if (Files.exists(crt) && Files.exists(key)) {
            return new Issued(Pem.certificates(Files.readString(crt)).getFirst(), Pem.privateKey(Files.readString(key)));
        }
        LOG.log(Level.INFO, "Creating a new cluster CA in {0}", dir.toAbsolutePath());
        return store(dir, "ca", CertificateIssuer.selfSignedCa("kapi-ca"));
    }

    /** The stored leaf {@code name}, or null when it is missing, not from {@code ca} or expiring soon. */
    private static Issued load(Path dir, String name, Issued ca) throws IOException {
        Path crt = dir.resolve(name + ".crt");
        Path key = dir.resolve(name + ".key");
        if (!Files.exists(crt) || !Files.exists(key)) {
            return null;
        }
        try {
            X509Certificate cert = Pem.certificates(Files.readString(crt)).getFirst();
            if (!namesIssuer(cert, ca.certificate())) {
                LOG.log(Level.INFO, "Issuing {0} again: it is not from the cluster CA in {1}", crt, dir);
                return null;
            }
            if (cert.getNotAfter().toInstant().isBefore(Instant.now().plus(RENEW_BEFORE))) {
                LOG.log(Level.INFO, "Renewing {0}: it expires on {1}", crt, cert.getNotAfter());
                return null;
            }
            return new Issued(cert, Pem.privateKey(Files.readString(key)));
        } catch (Exception e) {
            LOG.log(Level.WARNING, "Issuing {0} again: {1}", crt, e.getMessage());
            return null;
        }
    }

    /**
     * Whether {@code cert} names {@code ca} as its issuer, by name and key identifier: how a CA that
     * was made again (a new key) is told apart. The files are the server's own (0600), so the check is
     * for a mismatched pair, not for forgery, and the signature is left to the clients: verifying it
     * here took ~70 ms of a start's CPU per certificate (the JDK's elliptic-curve code, interpreted).
     */
    static boolean namesIssuer(X509Certificate cert, X509Certificate ca) {
        byte[] authority = cert.getExtensionValue(CertificateIssuer.AUTHORITY_KEY_IDENTIFIER);
        if (authority == null || ca.getExtensionValue(CertificateIssuer.SUBJECT_KEY_IDENTIFIER) == null
                || !cert.getIssuerX500Principal().equals(ca.getSubjectX500Principal())) {
            return false;
        }
        try {
            // AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] IMPLICIT OCTET STRING OPTIONAL, ... }
            for (Der.Element part : Der.read(Der.read(authority).expect(Der.OCTET_STRING).content()).children()) {
                if (part.isContext(0)) {
                    return Arrays.equals(part.content(), CertificateIssuer.keyIdentifierOf(ca));
                }
            }
            return false;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean covers(X509Certificate cert, ServingNames names) {
        Set<String> present = new HashSet<>();
        try {
            if (cert.getSubjectAlternativeNames() != null) {
                for (List<?> san : cert.getSubjectAlternativeNames()) {
                    present.add(normalize(san.get(1).toString()));
                }
            }
        } catch (CertificateParsingException e) {
            return false;
        }
        for (String wanted : concat(names.dnsNames(), names.ipAddresses())) {
            if (!present.contains(normalize(wanted))) {
                LOG.log(Level.INFO, "Issuing a new serving certificate: it lacks the name {0}", wanted);
                return false;
            }
        }
        return true;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    private static String normalize(String name) {
        if (name.contains(":") || name.matches("[0-9.]+")) {
            try {
                return InetAddress.ofLiteral(name).getHostAddress();
            } catch (IllegalArgumentException e) {
                return name;
            }
        }
        return name.toLowerCase(java.util.Locale.ROOT);
    }

    private static Issued store(Path dir, String name, Issued issued) throws IOException {
        writeSecret(dir.resolve(name + ".key"), keyPem(issued));
        writeSecret(dir.resolve(name + ".crt"), Pem.encode(issued.certificate()));
        return issued;
    }

    private static void writeSecret(Path file, String text) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

}
