package io.kapi.apis;

import io.kapi.apis.defaults.BuiltinDefaults;
import io.kapi.apis.validation.BuiltinValidation;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.GenericStrategy;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyProvider;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The strategies of the built-in resources. The per-kind facts below are kube-apiserver's (which
 * strategies set {@code metadata.generation}, which accept create-on-update); kinds with richer
 * behaviour have their own {@link Strategy} here.
 */
public final class BuiltinStrategies implements StrategyProvider {

    /** group/resource of kinds whose kube-apiserver strategy maintains metadata.generation. */
    private static final Set<String> GENERATION = Set.of(
            "/pods", "/replicationcontrollers",
            "apps/deployments", "apps/replicasets", "apps/statefulsets", "apps/daemonsets",
            "batch/jobs", "batch/cronjobs",
            "networking.k8s.io/ingresses", "networking.k8s.io/networkpolicies", "networking.k8s.io/ingressclasses",
            "policy/poddisruptionbudgets",
            "admissionregistration.k8s.io/mutatingwebhookconfigurations",
            "admissionregistration.k8s.io/validatingwebhookconfigurations",
            "admissionregistration.k8s.io/validatingadmissionpolicies",
            "admissionregistration.k8s.io/validatingadmissionpolicybindings",
            "flowcontrol.apiserver.k8s.io/flowschemas", "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations",
            "apiextensions.k8s.io/customresourcedefinitions",
            "resource.k8s.io/deviceclasses", "resource.k8s.io/resourceslices");

    /** group/resource of kinds whose kube-apiserver strategy allows a PUT to create. */
    private static final Set<String> CREATE_ON_UPDATE = Set.of(
            "/endpoints", "/events", "/limitranges", "/services",
            "events.k8s.io/events", "coordination.k8s.io/leases", "discovery.k8s.io/endpointslices",
            "rbac.authorization.k8s.io/roles", "rbac.authorization.k8s.io/clusterroles",
            "rbac.authorization.k8s.io/rolebindings", "rbac.authorization.k8s.io/clusterrolebindings");

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
    public Strategy forResource(ApiResource resource) {
        String key = resource.group() + "/" + resource.name();
        Strategy generic = new GenericStrategy(GENERATION.contains(key), CREATE_ON_UPDATE.contains(key),
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
