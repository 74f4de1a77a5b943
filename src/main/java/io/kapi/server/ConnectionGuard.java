package io.kapi.server;

import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.server.NegotiatingServerConnection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Bounds what slow or greedy clients can hold, for the listener it is registered with:
 * <ul>
 *   <li>at most {@code connectionsPerClient} connections from one IP address: a further one is closed
 *       as soon as it opens;</li>
 *   <li>the TLS handshake must finish within {@code headerTimeout}, and every HTTP/1.1 request's headers
 *       within {@code headerTimeout} of their first byte (Go's {@code ReadHeaderTimeout}, 32 s in
 *       kube-apiserver): a slowloris client trickling a header a line at a time is disconnected. A
 *       connection quiet between requests is the idle timeout's to close, not this one's.</li>
 * </ul>
 * One sweep a second checks every connection, so a deadline is kept to within a second. HTTP/2 needs no
 * sweep: its headers come in one frame block, and Jetty bounds a stream's idle time.
 *
 * <p>It also knows which connections still owe an answer ({@link #unanswered}), so that shutdown can serve a
 * client whose connection was accepted just before the listener closed, or whose request was read but not yet
 * handled, as Go's server does.
 */
final class ConnectionGuard implements Connection.Listener {

    private static final System.Logger LOG = System.getLogger(ConnectionGuard.class.getName());
    private static final long SWEEP_MILLIS = 1000;

    private final long headerTimeoutNanos;
    private final int connectionsPerClient;
    private final Map<InetAddress, AtomicInteger> perClient = new ConcurrentHashMap<>();
    /** The client of each counted connection, as it was at open (a closed endpoint knows no remote address). */
    private final Map<SslConnection, InetAddress> clients = new ConcurrentHashMap<>();
    private final Map<SslConnection, Handshake> handshakes = new ConcurrentHashMap<>();
    /** When each open connection was accepted ({@link System#nanoTime()}). */
    private final Map<SslConnection, Long> openedAt = new ConcurrentHashMap<>();
    private final Map<HttpConnection, Headers> http1 = new ConcurrentHashMap<>();
    private volatile Scheduler.Task sweep;

    ConnectionGuard(Duration headerTimeout, int connectionsPerClient) {
        this.headerTimeoutNanos = headerTimeout.toNanos();
        this.connectionsPerClient = connectionsPerClient;
    }

    /** Starts the sweeps on {@code scheduler} (the connector's, once it runs). */
    void start(Scheduler scheduler) {
        sweep = scheduler.schedule(() -> sweepThenReschedule(scheduler), SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    void stop() {
        Scheduler.Task task = sweep;
        sweep = null;
        if (task != null) {
            task.cancel();
        }
    }

    @Override
    public void onOpened(Connection connection) {
        switch (connection) {
            case SslConnection ssl -> opened(ssl);
            case HttpConnection http -> http1.put(http, new Headers(http));
            default -> {
            }
        }
    }

    @Override
    public void onClosed(Connection connection) {
        switch (connection) {
            case SslConnection ssl -> {
                handshakes.remove(ssl);
                openedAt.remove(ssl);
                InetAddress client = clients.remove(ssl);
                if (client != null) {
                    perClient.computeIfPresent(client, (k, n) -> n.decrementAndGet() <= 0 ? null : n);
                }
            }
            case HttpConnection http -> http1.remove(http);
            default -> {
            }
        }
    }

    private void opened(SslConnection ssl) {
        long now = System.nanoTime();
        openedAt.put(ssl, now);
        InetAddress client = client(ssl.getEndPoint().getRemoteSocketAddress());
        if (client != null) {
            clients.put(ssl, client);
            int n = perClient.computeIfAbsent(client, k -> new AtomicInteger()).incrementAndGet();
            if (n > connectionsPerClient) {
                LOG.log(Level.WARNING, "{0} holds {1} connections, more than {2}: closing the newest",
                        client.getHostAddress(), n, connectionsPerClient);
                ssl.getEndPoint().close();
                return;
            }
        }
        Handshake h = new Handshake(now);
        handshakes.put(ssl, h);
        ssl.addHandshakeListener(h);
    }

    /**
     * How many open connections still owe their client an answer: those accepted at or after {@code since}
     * ({@link System#nanoTime()}) that have not yet been answered once (still in their TLS handshake or
     * protocol negotiation, or with no response begun), and any connection with a request read but no
     * response begun. A request Jetty has parsed may not yet have reached the handlers, so shutdown waits on
     * what the connection has answered rather than on what it has read.
     */
    int unanswered(long since) {
        int n = 0;
        for (Map.Entry<SslConnection, Long> e : openedAt.entrySet()) {
            if (e.getKey().getEndPoint().isOpen() && owesAnswer(e.getKey(), e.getValue() - since >= 0)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Jetty counts a message in when a request's headers are parsed (an HTTP/2 stream opened) and a message
     * out when its response is committed (the stream closed).
     */
    private static boolean owesAnswer(SslConnection ssl, boolean recent) {
        Connection inner = ssl.getSslEndPoint().getConnection();
        return switch (inner) {
            case HttpConnection http -> owesAnswer(http.getMessagesIn(), http.getMessagesOut(), recent);
            case HTTP2Connection h2 -> owesAnswer(h2.getMessagesIn(), h2.getMessagesOut(), recent);
            case NegotiatingServerConnection negotiating -> recent;
            case null -> recent;
            default -> false;
        };
    }

    private static boolean owesAnswer(long in, long out, boolean recent) {
        return in > out || (recent && out == 0);
    }

    private void sweepThenReschedule(Scheduler scheduler) {
        try {
            sweep(System.nanoTime());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "connection sweep failed", e);
        }
        if (sweep != null) {
            sweep = scheduler.schedule(() -> sweepThenReschedule(scheduler), SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void sweep(long now) {
        handshakes.forEach((ssl, h) -> {
            if (h.done) {
                handshakes.remove(ssl);
            } else if (now - h.opened > headerTimeoutNanos) {
                LOG.log(Level.DEBUG, "TLS handshake from {0} not done in time: closing", ssl.getEndPoint().getRemoteSocketAddress());
                ssl.getEndPoint().close();
            }
        });
        http1.forEach((http, h) -> {
            if (h.tooSlow(now, headerTimeoutNanos)) {
                LOG.log(Level.DEBUG, "request headers from {0} not complete in time: closing",
                        http.getEndPoint().getRemoteSocketAddress());
                http.getEndPoint().close();
            }
        });
    }

    private static InetAddress client(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }

    /** Whether a connection's TLS handshake has finished. */
    private static final class Handshake implements SslHandshakeListener {
        final long opened;
        volatile boolean done;

        Handshake(long opened) {
            this.opened = opened;
        }

        @Override
        public void handshakeSucceeded(Event event) {
            done = true;
        }

        @Override
        public void handshakeFailed(Event event, Throwable failure) {
            done = true;
        }
    }

    /**
     * Progress of an HTTP/1.1 connection between sweeps: bytes arriving while no request is being served
     * and none began are a request's headers in the making; they must be complete within the timeout.
     */
    private static final class Headers {
        private final AbstractConnection connection;
        private long messagesIn;
        private long bytesIn;
        private long started;

        Headers(AbstractConnection connection) {
            this.connection = connection;
        }

        /** Called by the one sweeping thread. */
        boolean tooSlow(long now, long timeoutNanos) {
            long in = connection.getMessagesIn();
            long out = connection.getMessagesOut();
            long bytes = connection.getBytesIn();
            if (in != messagesIn || in != out) {
                messagesIn = in;
                bytesIn = bytes;
                started = 0;
                return false;
            }
            if (bytes != bytesIn) {
                bytesIn = bytes;
                if (started == 0) {
                    started = now;
                }
            }
            return started != 0 && now - started > timeoutNanos;
        }
    }
}
