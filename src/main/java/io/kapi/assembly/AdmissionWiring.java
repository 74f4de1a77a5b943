package io.kapi.assembly;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.admission.AdmissionConfiguration;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.client.LocalClient;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.metrics.AdmissionMetrics;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceDefinition;
import io.kapi.registry.ResourceStore;
import java.time.Clock;
import java.util.Optional;

/**
 * Builds the admission chain of {@code --enable/--disable-admission-plugins} and
 * {@code --admission-control-config-file}, and gives its plugins what is made after them: the registry
 * and its shared informers, the loopback client (for quota status writes) and the authorizer.
 */
final class AdmissionWiring {

    private final ApiConfig.Admission config;
    private final AdmissionConfiguration file;
    private final Clock clock;
    private final StoreInformers informers;
    private final io.kapi.machinery.features.FeatureGates gates;
    private final RegistryShapes shapes;
    private volatile Registry registry;
    private volatile SharedInformers sharedInformers;
    private volatile LocalClient client;
    private volatile Authorizer authorizer = attributes -> Decision.noOpinion();

    /** @throws IllegalArgumentException when the configuration file is unreadable or wrong */
    private final AdmissionMetrics metrics;

    AdmissionWiring(ApiConfig.Admission config, io.kapi.machinery.features.FeatureGates gates,
                    io.kapi.machinery.apply.FieldManagers fields, Clock clock, AdmissionMetrics metrics) {
        this.metrics = metrics;
        this.gates = gates;
        this.shapes = new RegistryShapes(() -> registry, fields);
        this.config = config;
        this.file = config.configFile() == null ? AdmissionConfiguration.NONE
                : AdmissionConfiguration.read(config.configFile());
        this.clock = clock;
        this.informers = new StoreInformers(() -> sharedInformers);
    }

    /** The chain, for the registry to build with itself as the lookup. */
    AdmissionChain chain(ObjectLookup lookup) {
        PluginContext context = new PluginContext(lookup, informers, this::updateStatus, () -> authorizer, clock, null,
                this::resourceOf, this::definitionOf, shapes, metrics);
        return AdmissionPlugins.chain(config.enable(), config.disable(), file, context, gates);
    }

    void bind(Registry builtRegistry, SharedInformers shared, LocalClient apiserver, Authorizer serverAuthorizer) {
        this.registry = builtRegistry;
        this.sharedInformers = shared;
        this.client = apiserver;
        this.authorizer = serverAuthorizer;
    }

    /** The informers' post-start hook (after the watch caches start). */
    StoreInformers informers() {
        return informers;
    }

    private Optional<ApiResource> resourceOf(GroupVersionKind kind) {
        Registry r = registry;
        if (r == null) {
            return Optional.empty();
        }
        return r.stores().stream().map(ResourceStore::resource).filter(api -> api.gvk().equals(kind)).findFirst();
    }

    private Optional<ResourceDefinition> definitionOf(GroupVersionResource resource) {
        Registry r = registry;
        return r == null ? Optional.empty() : r.definition(resource);
    }

    private ObjectNode updateStatus(GroupVersionResource resource, ObjectNode object) {
        return client.resource(resource).update(object, "status");
    }
}
