package io.kapi.testing;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The clients the extension opened for one server and namespace: one per client library, opened on
 * first request, closed together.
 */
final class Clients implements AutoCloseable {

    private record Open(ClientFactory factory, Object client) {
    }

    private final KapiServer server;
    private final String namespace;
    private final Map<String, Open> open = new LinkedHashMap<>();

    Clients(KapiServer server, String namespace) {
        this.server = server;
        this.namespace = namespace;
    }

    /** Whether {@code type} is a client type some library's factory makes. */
    static boolean supports(Class<?> type) {
        return ClientFactory.factoryClassFor(type) != null;
    }

    /** The client of {@code type}, opened on first request. */
    synchronized Object get(Class<?> type) {
        String factoryClass = ClientFactory.factoryClassFor(type);
        if (factoryClass == null) {
            throw new IllegalArgumentException("not a client type the extension makes: " + type.getName());
        }
        return open.computeIfAbsent(factoryClass, name -> {
            ClientFactory factory = load(name, type);
            return new Open(factory, factory.open(server, namespace));
        }).client();
    }

    private static ClientFactory load(String name, Class<?> type) {
        try {
            var constructor = Class.forName(name, true, Clients.class.getClassLoader()).getDeclaredConstructor();
            return (ClientFactory) constructor.newInstance();
        } catch (ClassNotFoundException | NoSuchMethodException | InstantiationException | IllegalAccessException
                 | InvocationTargetException e) {
            throw new IllegalStateException("cannot make a " + type.getName() + " client", e);
        }
    }

    /** Closes every client opened; the first failure is thrown after all were tried. */
    @Override
    public synchronized void close() {
        List<RuntimeException> failures = new ArrayList<>();
        for (Open o : open.values()) {
            try {
                o.factory().close(o.client());
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        open.clear();
        if (!failures.isEmpty()) {
            RuntimeException first = failures.getFirst();
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
    }
}
