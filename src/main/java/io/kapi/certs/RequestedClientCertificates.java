package io.kapi.certs;

import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The listener's trust manager: it asks clients for a certificate from the client CAs (they are the
 * {@linkplain #getAcceptedIssuers accepted issuers} sent in the handshake, so a client picks the right
 * one) but accepts whatever certificate it is shown, as Go's {@code tls.RequestClientCert} does in
 * kube-apiserver: a certificate from another CA, expired, not yet valid, self-signed or not for client
 * use completes the handshake, and the x509 authenticator then declines it, so the request answers 401
 * or proceeds as anonymous. The client still proves it holds the certificate's key (the handshake's
 * CertificateVerify). Servers are never verified with it.
 */
final class RequestedClientCertificates extends OneSidedTrustManager {

    private final X509Certificate[] clientCas;

    RequestedClientCertificates(List<X509Certificate> clientCas) {
        super(Side.CLIENTS);
        this.clientCas = clientCas.toArray(X509Certificate[]::new);
    }

    /** Any certificate with a leaf: the x509 authenticator decides what it is worth. */
    @Override
    protected void check(X509Certificate[] chain, String authType) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("empty client certificate chain");
        }
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return clientCas.clone();
    }
}
