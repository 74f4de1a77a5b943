package io.kapi.bench.hostile;

import io.kapi.e2e.Kubeconfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;

/**
 * Slow clients on raw TLS sockets from 127.0.0.2 (so the server can tell them from the probe): slowloris
 * connections that send a request line and then one header line every 5 s, and slow bodies that send
 * complete headers announcing 1,000 bytes and then one byte a second. Each socket has a reader that notes
 * when the server closes it (or answers). Everything is closed by {@link #close}.
 */
final class Attackers implements AutoCloseable {

    private final Kubeconfig kubeconfig;
    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicInteger open = new AtomicInteger();
    private volatile boolean running = true;

    Attackers(Kubeconfig kubeconfig) {
        this.kubeconfig = kubeconfig;
    }

    /** Opens {@code slowloris} header tricklers and {@code slowBodies} body tricklers. */
    void start(int slowloris, int slowBodies) throws IOException {
        for (int i = 0; i < slowloris + slowBodies; i++) {
            boolean body = i >= slowloris;
            SSLSocket s = connect();
            sockets.add(s);
            open.incrementAndGet();
            String head = body
                    ? "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n"
                    : "GET /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n";
            s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            Thread.ofVirtual().start(() -> awaitClose(s));
            Thread.ofVirtual().start(() -> trickle(s, body));
        }
    }

    /** How many attacking connections the server has not closed or answered yet. */
    int open() {
        return open.get();
    }

    private SSLSocket connect() throws IOException {
        Socket raw = new Socket();
        raw.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
        raw.connect(new InetSocketAddress(kubeconfig.server().getHost(), kubeconfig.server().getPort()), 10_000);
        SSLSocket s = (SSLSocket) kubeconfig.sslContext().getSocketFactory()
                .createSocket(raw, kubeconfig.server().getHost(), kubeconfig.server().getPort(), true);
        s.startHandshake();
        return s;
    }

    private void trickle(Socket s, boolean body) {
        try {
            OutputStream out = s.getOutputStream();
            for (int k = 0; running && k < 1000; k++) {
                Thread.sleep(body ? 1000 : 5000);
                out.write(body ? "x".getBytes(StandardCharsets.US_ASCII)
                        : ("X-Slow-" + k + ": y\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException | InterruptedException closed) {
            // the server gave up on it, or the bench is over
        }
    }

    private void awaitClose(Socket s) {
        try {
            InputStream in = s.getInputStream();
            in.read();
        } catch (IOException e) {
            // closed
        } finally {
            open.decrementAndGet();
        }
    }

    @Override
    public void close() {
        running = false;
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
