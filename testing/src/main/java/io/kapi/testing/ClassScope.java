package io.kapi.testing;

/**
 * The server of one {@link KapiTest} class (and its nested classes): the clients made for it in the
 * {@code default} namespace, and the snapshot {@link KapiTest#restoreAfterEach()} restores.
 */
final class ClassScope implements AutoCloseable {

    private final KapiServer server;
    private final Clients clients;
    private KapiSnapshot afterSetUp;

    ClassScope(KapiServer server) {
        this.server = server;
        this.clients = new Clients(server, "default");
    }

    KapiServer server() {
        return server;
    }

    Clients clients() {
        return clients;
    }

    /** Takes the snapshot to restore after each test, once: before the first test, after {@code @BeforeAll}. */
    synchronized void snapshotOnce() {
        if (afterSetUp == null) {
            afterSetUp = server.snapshot();
        }
    }

    /** Brings back the state before the first test. */
    synchronized void restore() {
        if (afterSetUp != null) {
            server.restore(afterSetUp);
        }
    }

    @Override
    public void close() {
        try {
            clients.close();
        } finally {
            server.close();
        }
    }
}
