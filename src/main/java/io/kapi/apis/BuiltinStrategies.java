package io.kapi.apis;

import io.kapi.apis.defaults.BuiltinDefaults;
import io.kapi.apis.validation.BuiltinValidation;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.GenericStrategy;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyProvider;
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

    private final UnaryOperator<Strategy> services;

    /** Built-in strategies without service allocation (for tests that need none). */
    public BuiltinStrategies() {
        this(UnaryOperator.identity());
    }

    /** @param services decorates the services strategy, e.g. {@code ServiceAllocators::decorate} */
    public BuiltinStrategies(UnaryOperator<Strategy> services) {
        this.services = services;
    }

    @Override
    public Strategy forResource(ApiResource resource) {
        String key = resource.group() + "/" + resource.name();
        Strategy generic = new GenericStrategy(GENERATION.contains(key), CREATE_ON_UPDATE.contains(key),
                BuiltinDefaults.forKind(resource.gvk()), BuiltinValidation.forKind(resource.gvk()));
        return switch (key) {
            case "/namespaces" -> new NamespaceStrategy(generic);
            case "/pods" -> new PodStrategy(BuiltinValidation.withStatusSplit(generic, resource.gvk()));
            case "/services" -> services.apply(BuiltinValidation.withStatusSplit(generic, resource.gvk()));
            default -> BuiltinValidation.withStatusSplit(generic, resource.gvk());
        };
    }
}
