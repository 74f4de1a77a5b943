package io.kapi.webhook;

import io.kapi.certs.OneSidedTrustManager;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * TLS trust for calling a webhook, as kube's webhook client: the server's chain must lead to the
 * webhook's {@code caBundle} (the system roots when it has none), and its certificate must name the host
 * asked for in a subject alternative name (DNS, with a leading wildcard, or IP) — for a Service
 * {@code <name>.<namespace>.svc}, whatever address the call goes to. The common name is not looked at.
 */
public final class WebhookTrust {

    private WebhookTrust() {
    }

    /** An SSL context that trusts {@code caBundle} (PEM; empty: system roots) for {@code serverName}. */
    static SSLContext context(byte[] caBundle, String serverName) {
        return context(caBundle, serverName, null);
    }

    /**
     * As {@link #context(byte[], String)}, presenting the client certificate of {@code keys} (null: none)
     * when the server asks for one: the aggregator's proxy client certificate.
     *
     * @throws IllegalArgumentException when {@code caBundle} holds no readable certificate
     */
    public static SSLContext context(byte[] caBundle, String serverName, KeyManager[] keys) {
        try {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (caBundle.length == 0) {
                f.init((KeyStore) null);
            } else {
                KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
                store.load(null, null);
                int i = 0;
                for (var cert : CertificateFactory.getInstance("X.509")
                        .generateCertificates(new ByteArrayInputStream(caBundle))) {
                    store.setCertificateEntry("ca-" + i++, cert);
                }
                f.init(store);
            }
            X509TrustManager pkix = (X509TrustManager) f.getTrustManagers()[0];
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, new TrustManager[] {new NameChecking(pkix, serverName)}, null);
            return context;
        } catch (Exception e) {
            throw new IllegalArgumentException("unable to load root certificates: " + e.getMessage(), e);
        }
    }

    /**
     * An SSL context that trusts any server, as kube's transport with {@code Insecure: true} (an APIService's
     * {@code insecureSkipTLSVerify}, the aggregator's availability check), presenting {@code keys} (null: none).
     */
    public static SSLContext insecure(KeyManager[] keys) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, new TrustManager[] {new AnyServer()}, null);
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a TLS context: " + e.getMessage(), e);
        }
    }

    /** Every server chain accepted: no verification at all, which is what the caller asked for. */
    private static final class AnyServer extends OneSidedTrustManager {
        AnyServer() {
            super(Side.SERVERS);
        }

        @Override
        protected void check(X509Certificate[] chain, String authType) {
            // insecureSkipTLSVerify: nothing is checked
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /** Chain checked by PKIX, then the leaf's names against the expected host. */
    private static final class NameChecking extends OneSidedTrustManager {
        private final X509TrustManager pkix;
        private final String host;

        NameChecking(X509TrustManager pkix, String host) {
            super(Side.SERVERS);
            this.pkix = pkix;
            this.host = host;
        }

        @Override
        protected void check(X509Certificate[] chain, String authType) throws CertificateException {
            try {
                pkix.checkServerTrusted(chain, authType);
            } catch (CertificateException e) {
                throw new CertificateException("x509: certificate signed by unknown authority", e);
            }
            if (!names(chain[0], host)) {
                throw new CertificateException("x509: certificate is valid for " + sans(chain[0]) + ", not " + host);
            }
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return pkix.getAcceptedIssuers();
        }
    }

    static boolean names(X509Certificate cert, String host) {
        String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        boolean ip = h.contains(":") || h.matches("[0-9.]+");
        for (List<?> san : alternativeNames(cert)) {
            int type = (Integer) san.get(0);
            String value = String.valueOf(san.get(1));
            if (ip && type == 7 && sameAddress(value, h)) {
                return true;
            }
            if (!ip && type == 2 && dnsMatches(value.toLowerCase(Locale.ROOT), h.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static boolean dnsMatches(String pattern, String host) {
        if (pattern.startsWith("*.")) {
            int dot = host.indexOf('.');
            return dot > 0 && host.substring(dot).equals(pattern.substring(1));
        }
        return pattern.equals(host);
    }

    private static boolean sameAddress(String a, String b) {
        try {
            return InetAddress.ofLiteral(a).equals(InetAddress.ofLiteral(b));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Collection<List<?>> alternativeNames(X509Certificate cert) {
        try {
            Collection<List<?>> names = cert.getSubjectAlternativeNames();
            return names == null ? List.of() : names;
        } catch (CertificateParsingException e) {
            return List.of();
        }
    }

    private static String sans(X509Certificate cert) {
        return String.join(", ", alternativeNames(cert).stream().map(n -> String.valueOf(n.get(1))).toList());
    }
}
