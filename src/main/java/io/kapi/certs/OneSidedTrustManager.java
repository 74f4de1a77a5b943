package io.kapi.certs;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A trust manager that verifies one side of a handshake only (the listener's clients, or the server a
 * webhook client calls) and refuses the other: every overload of that side's check goes to
 * {@link #check}, the socket and engine variants included.
 */
public abstract class OneSidedTrustManager extends X509ExtendedTrustManager {

    /** Which peers a trust manager verifies. */
    public enum Side { CLIENTS, SERVERS }

    private final Side side;

    protected OneSidedTrustManager(Side side) {
        this.side = side;
    }

    /** Verifies a peer's chain on this manager's side. */
    protected abstract void check(X509Certificate[] chain, String authType) throws CertificateException;

    private void on(Side asked, X509Certificate[] chain, String authType) throws CertificateException {
        if (asked != side) {
            throw new CertificateException("this trust manager verifies no " + asked.name().toLowerCase(java.util.Locale.ROOT));
        }
        check(chain, authType);
    }

    @Override
    public final void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        on(Side.CLIENTS, chain, authType);
    }

    @Override
    public final void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        on(Side.CLIENTS, chain, authType);
    }

    @Override
    public final void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        on(Side.CLIENTS, chain, authType);
    }

    @Override
    public final void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        on(Side.SERVERS, chain, authType);
    }

    @Override
    public final void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        on(Side.SERVERS, chain, authType);
    }

    @Override
    public final void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        on(Side.SERVERS, chain, authType);
    }
}
