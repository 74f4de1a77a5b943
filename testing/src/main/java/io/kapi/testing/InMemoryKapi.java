package io.kapi.testing;

import io.kapi.assembly.ApiAssembly;
import io.kapi.assembly.InMemoryServer;
import io.kapi.user.UserInfo;
import java.nio.file.Path;
import java.util.List;

/**
 * The API of a {@link KapiServer} without its listener: the same assembly (storage, registry, admission,
 * authorization, bootstrap hooks, controllers as configured) driven by a {@link DirectClient} in this
 * JVM, with no port, TLS or HTTP. For tests of what is behind the API (an operator's reconcile step,
 * admission rules, RBAC) that need no real client; what needs one (kubectl, fabric8, informers) takes
 * {@link KapiServer#builder()}'s {@code start()}. Made by {@link KapiServer.Builder#startInMemory()}.
 */
public final class InMemoryKapi implements AutoCloseable {

    private static final UserInfo ADMIN = new UserInfo("kubernetes-admin", "",
            List.of("system:masters", "system:authenticated"));

    private final ApiAssembly api;
    private final InMemoryServer server;
    private final Path directory;

    InMemoryKapi(ApiAssembly api, InMemoryServer server, Path directory) {
        this.api = api;
        this.server = server;
        this.directory = directory;
    }

    /** A client acting as the admin ({@code kubernetes-admin} in {@code system:masters}). */
    public DirectClient client() {
        return new DirectClient(server, ADMIN);
    }

    /** The library's own calls (CRDs) through the admin client. */
    AdminCalls admin() {
        DirectClient admin = client();
        return new AdminCalls() {
            @Override
            public Answer post(String path, String contentType, String body) {
                DirectClient.Response r = admin.call("POST", path, contentType, body);
                return new Answer(r.status(), r.text());
            }

            @Override
            public Answer get(String path) {
                DirectClient.Response r = admin.get(path);
                return new Answer(r.status(), r.text());
            }

            @Override
            public String where() {
                return "an in-memory server";
            }
        };
    }

    /** Stops the API's controllers and storage and removes its directory. */
    @Override
    public void close() {
        try {
            api.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the in-memory API", e);
        } finally {
            TempDirs.delete(directory);
        }
    }
}
