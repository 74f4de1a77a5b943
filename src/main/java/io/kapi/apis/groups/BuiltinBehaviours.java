package io.kapi.apis.groups;

import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import io.kapi.registry.BehaviourProvider;
import io.kapi.registry.GenericStrategy;
import io.kapi.registry.ResourceBehaviour;
import io.kapi.registry.Strategy;

/**
 * The behaviour of each built-in resource, made from its kind's registration ({@link BuiltinKinds}): the
 * generic strategy configured by the resource table's facts (which strategies set {@code metadata.generation},
 * which accept create-on-update) with the kind's defaults and validation, the status split, the kind's own
 * strategy, its conversion to the storage version, its table printer and where it holds a pod template.
 *
 * <p>For a resource served in several versions the store defaults in the served version but prepares and
 * validates the object converted to the storage version, as kube-apiserver's strategies work on the internal
 * type: the defaults are the served kind's, the status split and the printer are the stored kind's, and the
 * validation rules, written for the stored object, are the served kind's (the served group decides how strict
 * they are: Events written through {@code events.k8s.io} are checked harder than core ones).
 */
public final class BuiltinBehaviours implements BehaviourProvider {

    private final ServerHooks server;

    /** Built-in behaviours without allocation or the apiextensions rules (for tests that need none). */
    public BuiltinBehaviours() {
        this(ServerHooks.NONE);
    }

    /** @param server what the strategies of Services and CustomResourceDefinitions need of the server */
    public BuiltinBehaviours(ServerHooks server) {
        this.server = server;
    }

    @Override
    public ResourceBehaviour forResource(ApiResource resource, ResourceFacts facts) {
        BuiltinKind kind = BuiltinKinds.of(resource.gvk());
        Converter converter = facts.stored() ? kind.conversion() : Converter.NONE;
        BuiltinKind stored = converter == Converter.NONE ? kind : BuiltinKinds.of(facts.storageVersion());
        Strategy generic = new GenericStrategy(facts.tracksGeneration(), facts.createOnUpdate(), kind.defaults(),
                kind.validation());
        Strategy split = stored.withStatusSplit(generic);
        Strategy strategy = kind.strategy() == null ? split : kind.strategy().of(split, server);
        return new ResourceBehaviour(strategy, converter, stored.printer(), kind.podTemplate(), stored.atRest());
    }
}
