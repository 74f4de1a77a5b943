package io.kapi.certs;

/**
 * The kinds of key {@link LocalPki} makes: P-256 for the CA and the serving certificate, and for the
 * admin certificate whichever its clients read. RSA 2048 is what every client library reads from a
 * kubeconfig (fabric8 before 7 reads EC keys only with Bouncy Castle on its classpath), so
 * {@code bin/kapi}'s admin certificate has one; P-256 takes milliseconds where an RSA key takes from a
 * tenth of a second to a second of CPU (most of a fresh JVM's first in-process server), for JVMs known
 * to read it (the test library's, which has Bouncy Castle with Kapi). EC keys are written in SEC1 form
 * ({@code EC PRIVATE KEY}, with their curve and public key), which kubectl, fabric8 and the official
 * clients recognise as EC.
 */
public enum KeyType {
    RSA_2048("RSA", 2048),
    EC_P256("EC", 256);

    /** The JCA algorithm name and key size to generate one with. */
    final String algorithm;
    final int size;

    KeyType(String algorithm, int size) {
        this.algorithm = algorithm;
        this.size = size;
    }
}
