package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.SystemNamespaces;
import io.kapi.assembly.ApiAssembly;
import io.kapi.assembly.ApiConfig;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.registry.Registry;
import io.kapi.storage.Storage;
import io.kapi.user.SystemUsers;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole API over in-memory storage, none of its post-start hooks run but the system namespaces;
 * the hooks under test write through the loopback client as the server's own identity.
 */
final class BootstrapFixture implements AutoCloseable {

    final ApiAssembly assembly = ApiAssembly.create(ApiConfig.builder().dataDir(Path.of("target/unused")).build());
    final Registry registry = assembly.registry();
    final Storage storage = assembly.storage();
    final LocalClient client = assembly.loopback().as(SystemUsers.APISERVER, ApiAssembly.APISERVER_AGENT);

    BootstrapFixture() {
        new SystemNamespaces(client.resource("", "v1", "namespaces")).run();
    }

    ResourceClient store(String group, String plural) {
        return client.resource(group, "v1", plural);
    }

    ObjectNode get(String group, String plural, String namespace, String name) {
        return store(group, plural).get(namespace, name);
    }

    List<ObjectNode> list(String group, String plural) {
        return store(group, plural).list("");
    }

    @Override
    public void close() {
        try {
            assembly.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
