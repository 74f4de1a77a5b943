package io.kapi.server;

import io.kapi.endpoint.DelegationChain;
import io.kapi.endpoint.RestHandler;
import io.kapi.health.HealthCheck;
import io.kapi.health.HealthHandler;
import io.kapi.health.HealthObserver;
import io.kapi.health.KubeCheckOrder;
import io.kapi.health.NamedCheck;
import io.kapi.health.PostStartHook;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.MimeTypes;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTPS server in front of the API: Jetty with HTTP/2 and HTTP/1.1 over TLS (ALPN), client
 * certificates asked for but optional, one virtual thread per request, and the {@link HandlerChain}
 * in front of {@code [/healthz /livez /readyz, /version, API]}.
 * Lifecycle, after kube-apiserver's {@code lifecycle_signals.go}:
 * <pre>
 *   start()    → listening → post-start hooks run (readyz: poststarthook/* turn ok)
 *   shutdown() → ShutdownInitiated: readyz "shutdown" fails; HTTP/1.1 responses say Connection: close
 *              → serve as usual for shutdownDelay (load balancers see readyz and move away)
 *              → NotAcceptingNewRequest: the listener closes, HTTP/2 connections get GOAWAY
 *              → InFlightRequestsDrained: short requests finish (at most 60 s)
 *              → watches end cleanly, each with its final chunk / END_STREAM (at most 10 s)
 *              → connections accepted before the listener closed that have not sent a request yet get
 *                5 s from their accept to send one, which is served (Go's grace for new connections)
 *              → connections closed → stopped (the caller then closes storage)
 * </pre>
 */
public final class KapiServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KapiServer.class.getName());
    /** How long in-flight requests may take to finish: kube-apiserver's request timeout, 60 s. */
    private static final Duration DRAIN_REQUESTS = Duration.ofSeconds(60);
    /** How long ended watch streams may take to write their last bytes. */
    private static final Duration DRAIN_STREAMS = Duration.ofSeconds(10);
    /** How long after its accept a connection may take to send its first request once shutdown began (Go's). */
    private static final Duration NEW_CONNECTION_GRACE = Duration.ofSeconds(5);
    private static final long STOP_MILLIS = 5_000;
    private static final int MAX_JETTY_THREADS = 48;
    /**
     * The request line and headers of a request may take what Go's server reads of them: kube-apiserver's
     * {@code MaxHeaderBytes} of 1 MiB plus the 4 KiB its reader allows beyond it. More is 431.
     */
    private static final int MAX_HEADER_BYTES = (1 << 20) + 4096;
    /**
     * Go's server writes response headers of any size; Jetty needs a bound. Twice the request's leaves room
     * for a response that echoes a request header (a WebSocket subprotocol) beside its own. Responses start
     * with Jetty's usual header buffer; a larger one is taken only for headers that need it.
     */
    private static final int MAX_RESPONSE_HEADER_BYTES = 2 * MAX_HEADER_BYTES;
    /**
     * The bound of a response's headers over HTTP/2, where Jetty's HPACK encoder takes a buffer of the bound
     * for every HEADERS frame it writes: at {@link #MAX_RESPONSE_HEADER_BYTES} (2 MiB) each response took two
     * mebibytes of direct memory the buffer pool does not keep, and the JDK ran a full collection whenever
     * they ran out (every few hundred requests under load: get throughput fell to a third, p99 to 150 ms).
     * The long headers it was raised for are HTTP/1.1's (WebSocket upgrades); 64 KiB, the buffer pool's
     * largest kept size, holds any response header Kapi writes over HTTP/2.
     */
    static final int MAX_HTTP2_RESPONSE_HEADER_BYTES = 64 * 1024;

    private final ServerConfig config;
    private final Server jetty;
    private final ServerConnector connector;
    private final ExecutorService requests;
    private final PostStartHooks hooks;
    private final AtomicBoolean shuttingDown = new AtomicBoolean();
    private final InFlight inFlight = new InFlight();
    private final ConnectionGuard guard;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private KapiServer(ServerConfig config, RestHandler api, List<HealthCheck> checks, List<PostStartHook> hooks) {
        this.config = config;
        this.hooks = new PostStartHooks(hooks);
        this.requests = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("kapi-request-", 0).factory());
        List<HealthCheck> all = new ArrayList<>(List.of(NamedCheck.ping(), NamedCheck.log()));
        all.addAll(checks);
        all.addAll(this.hooks.checks());
        all.add(new NamedCheck("shutdown", () -> {
            if (shuttingDown.get()) {
                throw new IllegalStateException("the server is shutting down");
            }
        }, true));
        HealthObserver observer = config.observability() == null ? HealthObserver.NONE
                : config.observability().metrics().health()::checked;
        List<RestHandler> handlers = new ArrayList<>(List.of(
                new HealthHandler(KubeCheckOrder.sorted(all), observer),
                new VersionHandler(), new DebugFlagsHandler()));
        if (config.observability() != null) {
            handlers.add(new MetricsHandler(config.observability().metrics()));
        }
        handlers.add(api);
        RestHandler root = new DelegationChain(handlers);


        // Requests run on virtual threads; Jetty's own pool only needs its selectors, acceptors and
        // I/O callbacks, so a small bound keeps platform threads (and their stacks) few.
        QueuedThreadPool pool = new QueuedThreadPool(MAX_JETTY_THREADS, 4);
        pool.setName("kapi-jetty");
        this.jetty = new Server(pool);
        this.guard = new ConnectionGuard(config.limits().headerTimeout(), config.limits().connectionsPerClient());
        this.connector = connector(jetty, config);
        connector.addEventListener(guard);
        jetty.addConnector(connector);
        WebSocketStreams websockets = new WebSocketStreams(jetty, requests);
        jetty.setHandler(new GracefulHandler(new JettyAdapter(
                HandlerChain.build(config.security(), config.maxRequestBodyBytes(), config.observability(), root), requests, websockets,
                inFlight, shuttingDown::get, config.compressResponses())));
        jetty.setStopTimeout(STOP_MILLIS);
        jetty.setStopAtShutdown(false);
        jetty.setErrorHandler(new StatusErrorHandler());
    }

    /**
     * Starts listening, then runs the post-start hooks in the background.
     *
     * @param api the API handler, asked after the health and version endpoints
     * @param checks the API's own health checks (storage), shown after {@code ping} and {@code log}
     * @throws IOException if the address cannot be bound (port in use); nothing is left running
     */
    public static KapiServer start(ServerConfig config, RestHandler api, List<HealthCheck> checks,
                                   List<PostStartHook> hooks) throws IOException {
        KapiServer server = new KapiServer(config, api, checks, hooks);
        try {
            server.jetty.start();
        } catch (Exception e) {
            server.stopQuietly();
            if (e instanceof IOException io) {
                Throwable root = io;
                while (root.getCause() != null) {
                    root = root.getCause();
                }
                throw new IOException("cannot listen on " + config.bindAddress() + ":" + config.port()
                        + ": " + root.getMessage().toLowerCase(java.util.Locale.ROOT), io);
            }
            throw new IOException("cannot start the server: " + e.getMessage(), e);
        }
        server.guard.start(server.connector.getScheduler());
        LOG.log(Level.INFO, "Serving securely on {0}:{1,number,#}", config.bindAddress(), server.port());
        server.hooks.start();
        return server;
    }

    /**
     * Waits until every post-start hook has finished, which is when {@code /readyz} turns ok (given
     * healthy storage); what an in-process caller waits for instead of polling {@code /readyz}.
     *
     * @return false if {@code timeout} passed first
     */
    public boolean awaitReady(java.time.Duration timeout) throws InterruptedException {
        return hooks.await(timeout);
    }

    /** The version this server reports, e.g. {@code v1.34.0-kapi.0.1.0}. */
    /**
     * Initializes what the first server of a JVM would otherwise initialize on its start's critical
     * path, for a caller with a core to spare before {@link #start}: Jetty's MIME types, whose static
     * initializer lists every locale the JDK has (a third of a second of a cold JVM's CPU).
     */
    public static void preload() {
        MimeTypes.DEFAULTS.getMimeMap();
    }

    public static String gitVersion() {
        return VersionHandler.gitVersion();
    }

    /** How many requests clients have sent since the server started (the API's own loopback calls not counted). */
    public long requestsReceived() {
        return inFlight.started();
    }

    /** How many client connections the server has accepted and not yet closed (TLS handshake done or not). */
    public int openConnections() {
        return connector.getConnectedEndPoints().size();
    }

    /** The port actually bound. */
    public int port() {
        return connector.getLocalPort();
    }

    /** Blocks until the server has stopped. */
    public void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    /**
     * Shuts down gracefully (see the class comment). Safe to call more than once and from a signal
     * handler; returns when the server has stopped.
     */
    public void shutdown() {
        if (!shuttingDown.compareAndSet(false, true)) {
            try {
                awaitStopped();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        LOG.log(Level.INFO, "Shutting down; readyz now fails, serving for {0} ms more",
                config.shutdownDelay().toMillis());
        try {
            Thread.sleep(config.shutdownDelay());
            drain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopQuietly();
        LOG.log(Level.INFO, "Stopped");
    }

    /** Stops accepting, lets short requests finish, then ends the watches (see the class comment). */
    private void drain() throws InterruptedException {
        connector.shutdown();
        connector.close();
        long closed = System.nanoTime();
        LOG.log(Level.INFO, "Not accepting new connections; waiting for in-flight requests");
        finishRequestsAndStreams();
        // a client whose connection was accepted just before the close is still handshaking or about to
        // send its request, or a request was read and not yet handled: serve it rather than cut it off (a
        // request it sends is answered, Connection: close)
        long since = closed - NEW_CONNECTION_GRACE.toNanos();
        while (guard.unanswered(since) > 0 && System.nanoTime() - closed < NEW_CONNECTION_GRACE.toNanos()) {
            Thread.sleep(20);
        }
        finishRequestsAndStreams();
    }

    private void finishRequestsAndStreams() throws InterruptedException {
        int left = inFlight.awaitRequests(DRAIN_REQUESTS);
        if (left > 0) {
            LOG.log(Level.WARNING, "{0} requests still in flight after {1} s; stopping anyway", left,
                    DRAIN_REQUESTS.toSeconds());
        }
        left = inFlight.endStreams(DRAIN_STREAMS);
        if (left > 0) {
            LOG.log(Level.WARNING, "{0} requests or streams did not end in {1} s", left, DRAIN_STREAMS.toSeconds());
        }
    }

    @Override
    public void close() {
        shutdown();
    }

    private void stopQuietly() {
        hooks.stop();
        guard.stop();
        try {
            jetty.stop();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "error while stopping the listener", e);
        }
        requests.shutdownNow();
        stopped.countDown();
    }

    private static ServerConnector connector(Server jetty, ServerConfig config) {
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        http.setMaxResponseHeaderSize(MAX_RESPONSE_HEADER_BYTES);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        secure.setSniRequired(false);
        http.addCustomizer(secure);

        HttpConnectionFactory http11 = new WholeChunks(http);
        HttpConfiguration http2 = new HttpConfiguration(http);
        http2.setMaxResponseHeaderSize(MAX_HTTP2_RESPONSE_HEADER_BYTES);
        HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http2);
        h2.setMaxConcurrentStreams(config.limits().streamsPerConnection());
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
        alpn.setDefaultProtocol(http11.getProtocol());

        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setSslContext(config.tls().serverContext());
        ssl.setWantClientAuth(!config.tls().clientCas().isEmpty());
        ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
        ssl.setSniRequired(false);

        SslConnectionFactory tls = new SslConnectionFactory(ssl, alpn.getProtocol());
        if (config.observability() != null) {
            // kube counts the connections its TLS server logs "TLS handshake error from ..." for
            var requests = config.observability().metrics().requests();
            tls.addBean(new SslHandshakeListener() {
                @Override
                public void handshakeFailed(Event event, Throwable failure) {
                    requests.tlsHandshakeError();
                }
            });
        }
        ServerConnector connector = new ServerConnector(jetty, tls, alpn, h2, http11);
        connector.setHost(config.bindAddress());
        connector.setPort(config.port());
        connector.setIdleTimeout(config.idleTimeout().toMillis());
        return connector;
    }
}
