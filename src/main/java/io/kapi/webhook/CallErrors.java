package io.kapi.webhook;

import java.io.IOException;
import java.net.URI;

/**
 * Go's words for an outgoing HTTPS call that failed before an answer came (what kube-apiserver reports of
 * a webhook or an aggregated API server it could not reach): {@code dial tcp <host:port>: connect:
 * connection refused}, {@code tls: failed to verify certificate: ...}, else the cause's own message.
 */
public final class CallErrors {

    private CallErrors() {
    }

    /** The failure of a call to {@code target}, without the method and URL Go puts in front. */
    public static String describe(IOException ex, URI target) {
        Throwable root = ex;
        boolean connect = ex instanceof java.net.ConnectException;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            connect |= root instanceof java.net.ConnectException;
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        if (connect) {
            int port = target.getPort() > 0 ? target.getPort() : 443;
            return "dial tcp " + target.getHost() + ":" + port + ": connect: connection refused";
        }
        if (root instanceof java.security.cert.CertificateException || ex instanceof javax.net.ssl.SSLException) {
            return "tls: failed to verify certificate: " + m;
        }
        return m;
    }
}
