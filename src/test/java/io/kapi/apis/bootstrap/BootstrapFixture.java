package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.BuiltinStrategies;
import io.kapi.apis.SystemNamespaces;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.machinery.validation.NameRule;
import io.kapi.machinery.validation.ObjectMetaValidator;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.storage.Storage;
import io.kapi.storage.Storages;
import java.time.Clock;
import java.util.List;

/** A registry of every built-in resource over in-memory storage, with the system namespaces. */
final class BootstrapFixture implements AutoCloseable {

    final Storage storage = Storages.memory();
    final Registry registry = new Registry(ResourceTable.builtin().resources(), storage, new BuiltinStrategies(),
            io.kapi.registry.StoreServices.minimal((resource, object) -> ObjectMetaValidator.validate(
                    object.get("metadata"), resource.namespaced(), NameRule.forResource(resource.group(),
                            resource.name())), Clock.systemUTC()));

    BootstrapFixture() {
        new SystemNamespaces(registry.namespaces()).run();
    }

    ResourceStore store(String group, String plural) {
        String version = "v1";
        return Stores.of(registry, group, version, plural);
    }

    ObjectNode get(String group, String plural, String namespace, String name) {
        return store(group, plural).get(namespace, name);
    }

    List<ObjectNode> list(String group, String plural) {
        return store(group, plural).list("", ListOptions.ALL).items();
    }

    @Override
    public void close() {
        storage.close();
    }
}
