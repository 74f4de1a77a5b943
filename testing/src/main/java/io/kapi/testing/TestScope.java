package io.kapi.testing;

/**
 * What one test method runs against: the server (the class's, or its own), its namespace, and the
 * clients for that namespace. Closing it closes what it owns: its clients when they are its own, its
 * namespace, its server.
 *
 * @param ownServer whether the server was started for this test (then closed after it)
 * @param ownNamespace whether the namespace was created for this test (then deleted after it)
 * @param ownClients whether {@code clients} were made for this test (else they are the class's)
 */
record TestScope(KapiServer server, boolean ownServer, String namespace, boolean ownNamespace, Clients clients,
                 boolean ownClients) implements AutoCloseable {

    /** @param keepNamespace leave the namespace to a restore that follows, which removes it anyway */
    void close(boolean keepNamespace) {
        try {
            if (ownClients) {
                clients.close();
            }
        } finally {
            if (ownServer) {
                server.close();
            } else if (ownNamespace && !keepNamespace) {
                server.deleteNamespace(namespace);
            }
        }
    }

    @Override
    public void close() {
        close(false);
    }
}
