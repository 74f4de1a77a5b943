package io.kapi.apis;

import io.kapi.apis.defaults.BuiltinDefaults;
import io.kapi.apis.validation.BuiltinValidation;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import io.kapi.registry.GenericStrategy;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyProvider;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The strategies of the built-in resources: the generic one configured by the resource table's facts
 * (which strategies set {@code metadata.generation}, which accept create-on-update), with each kind's
 * defaults and validation; kinds with richer behaviour have their own {@link Strategy} here.
 */
public final class BuiltinStrategies implements StrategyProvider {

    private final Map<String, UnaryOperator<Strategy>> decorations;

    /** Built-in strategies without allocation or admission (for tests that need none). */
    public BuiltinStrategies() {
        this(Map.of());
    }

    /**
     * @param decorations what wraps a resource's strategy, by {@code group/resource}: e.g. the service
     *        allocators for {@code /services}, pod admission for {@code /pods}
     */
    public BuiltinStrategies(Map<String, UnaryOperator<Strategy>> decorations) {
        this.decorations = Map.copyOf(decorations);
    }

    @Override
    public Strategy forResource(ApiResource resource, ResourceFacts facts) {
        String key = resource.group() + "/" + resource.name();
        Strategy generic = new GenericStrategy(facts.tracksGeneration(), facts.createOnUpdate(),
                BuiltinDefaults.forKind(resource.gvk()), BuiltinValidation.forKind(resource.gvk()));
        Strategy strategy = switch (key) {
            case "/namespaces" -> new NamespaceStrategy(generic);
            case "/pods" -> new PodStrategy(BuiltinValidation.withStatusSplit(generic, resource.gvk()));
            case "batch/jobs" -> new JobStrategy(BuiltinValidation.withStatusSplit(generic, resource.gvk()));
            default -> BuiltinValidation.withStatusSplit(generic, resource.gvk());
        };
        return decorations.getOrDefault(key, UnaryOperator.identity()).apply(strategy);
    }
}
