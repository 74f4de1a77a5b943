package io.kapi.certs;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server side's key manager of one serving key and its chain: it offers them for the key types the
 * JDK's {@code SunX509} key manager would (the key's algorithm, and for a {@code KEY_SIGNATURE} type such
 * as {@code EC_RSA} a chain signed with that algorithm), and never a client key.
 *
 * <p>What a {@code KeyManagerFactory} over a key store gives, without the store: building one puts the
 * chain's issuers into a set, which canonicalizes their names, a noticeable share of a fresh JVM's start.
 * Client CA names a handshake sends do not narrow the choice: there is one key.
 */
final class ServingKeyManager extends X509ExtendedKeyManager {

    static final String ALIAS = "serving";

    private final PrivateKey key;
    private final X509Certificate[] chain;

    ServingKeyManager(PrivateKey key, List<X509Certificate> chain) {
        this.key = key;
        this.chain = chain.toArray(X509Certificate[]::new);
    }

    /** Whether the serving key serves {@code keyType}: its algorithm, optionally {@code _} the chain's signer's. */
    boolean serves(String keyType) {
        if (keyType == null) {
            return false;
        }
        int underscore = keyType.indexOf('_');
        String algorithm = underscore < 0 ? keyType : keyType.substring(0, underscore);
        if (!algorithm.equals(key.getAlgorithm())) {
            return false;
        }
        if (underscore < 0) {
            return true;
        }
        String signer = keyType.substring(underscore + 1);
        return chain.length > 1 ? signer.equals(chain[1].getPublicKey().getAlgorithm())
                : chain[0].getSigAlgName().toUpperCase(Locale.ENGLISH).contains("WITH" + signer.toUpperCase(Locale.ENGLISH));
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return serves(keyType) ? new String[] {ALIAS} : null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return serves(keyType) ? ALIAS : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return serves(keyType) ? ALIAS : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? key : null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return null;
    }
}
