package io.kapi.apis.groups;

import io.kapi.registry.Strategy;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * What the strategies of a few built-in kinds need of the running server, which the assembly makes and
 * their registrations ask for by name: kube's {@code RESTStorageProvider}s get the same from the server's
 * config. {@link #NONE} leaves those strategies as they are (registries built by tests).
 *
 * @param services wraps the strategy of Services with cluster IP and node port allocation
 * @param customResourceDefinitions wraps the strategy of CustomResourceDefinitions with the apiextensions
 *        layer's (validation, stored versions, the cleanup finalizer)
 */
public record ServerHooks(UnaryOperator<Strategy> services, UnaryOperator<Strategy> customResourceDefinitions) {

    public static final ServerHooks NONE = new ServerHooks(UnaryOperator.identity(), UnaryOperator.identity());

    public ServerHooks {
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(customResourceDefinitions, "customResourceDefinitions");
    }

    public ServerHooks withServices(UnaryOperator<Strategy> s) {
        return new ServerHooks(s, customResourceDefinitions);
    }

    public ServerHooks withCustomResourceDefinitions(UnaryOperator<Strategy> c) {
        return new ServerHooks(services, c);
    }
}
