package io.kapi.server.certs;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server side's one key and chain, offered for the key types it fits, as the JDK's SunX509 key
 * manager chooses: the key's algorithm ({@code EC}, {@code RSA}), and for a type such as {@code EC_RSA}
 * the signing key's algorithm too (the CA's, or the leaf's signature for a chain of one).
 * <p>
 * It replaces a key store and {@code KeyManagerFactory}: a PKCS#12 store encrypts the key on entry
 * and decrypts it again for the factory (PBKDF2, ten thousand iterations each way), which was a
 * noticeable part of every server start. Never chosen as a client.
 */
final class ServingKeyManager extends X509ExtendedKeyManager {

    private static final String ALIAS = "serving";

    private final PrivateKey key;
    private final X509Certificate[] chain;

    ServingKeyManager(PrivateKey key, List<X509Certificate> chain) {
        this.key = key;
        this.chain = chain.toArray(X509Certificate[]::new);
    }

    private boolean fits(String keyType) {
        if (keyType == null) {
            return false;
        }
        int split = keyType.indexOf('_');
        String keyAlgorithm = split < 0 ? keyType : keyType.substring(0, split);
        if (!keyAlgorithm.equals(key.getAlgorithm())) {
            return false;
        }
        if (split < 0) {
            return true;
        }
        String signer = keyType.substring(split + 1);
        return chain.length > 1 ? signer.equals(chain[1].getPublicKey().getAlgorithm())
                : chain[0].getSigAlgName().toUpperCase(Locale.ROOT).contains("WITH" + signer.toUpperCase(Locale.ROOT));
    }

    private String[] aliases(String keyType) {
        return fits(keyType) ? new String[] {ALIAS} : null;
    }

    private String choose(String[] keyTypes) {
        if (keyTypes != null) {
            for (String type : keyTypes) {
                if (fits(type)) {
                    return ALIAS;
                }
            }
        }
        return null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return aliases(keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return choose(new String[] {keyType});
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return choose(new String[] {keyType});
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? key : null;
    }
}
