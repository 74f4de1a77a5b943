package io.kapi.apis;

import io.kapi.apis.conversion.BuiltinConversions;
import io.kapi.apis.defaults.BuiltinDefaults;
import io.kapi.apis.validation.BuiltinValidation;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.conversion.Converter;
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
 * defaults and validation; kinds with richer behaviour have their own {@link Strategy} here. Also the
 * conversions of the resources served in several versions ({@link BuiltinConversions}).
 *
 * <p>For such a resource the store defaults in the served version but prepares and validates the
 * object converted to the storage version, as kube-apiserver's strategies work on the internal type:
 * the defaults are the served kind's, the status split and validation rules are written for the stored
 * kind (validation rules are chosen by the served group, which decides how strict they are: Events
 * written through {@code events.k8s.io} are checked harder than core ones).
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
        GroupVersionKind stored = BuiltinConversions.storedKind(resource, facts);
        Strategy generic = new GenericStrategy(facts.tracksGeneration(), facts.createOnUpdate(),
                BuiltinDefaults.forKind(resource.gvk()), BuiltinValidation.forKind(resource.gvk()));
        Strategy strategy = switch (key) {
            case "/namespaces" -> new NamespaceStrategy(generic);
            case "/pods" -> new PodStrategy(BuiltinValidation.withStatusSplit(generic, stored));
            case "batch/jobs" -> new JobStrategy(BuiltinValidation.withStatusSplit(generic, stored));
            case "certificates.k8s.io/certificatesigningrequests" ->
                    new CsrStrategy(BuiltinValidation.withStatusSplit(generic, stored));
            default -> BuiltinValidation.withStatusSplit(generic, stored);
        };
        return decorations.getOrDefault(key, UnaryOperator.identity()).apply(strategy);
    }

    @Override
    public Converter converterFor(ApiResource resource, ResourceFacts facts) {
        return BuiltinConversions.forResource(resource, facts);
    }
}
