package io.kapi.assembly;

import io.kapi.apis.BuiltinStrategies;
import io.kapi.apis.SelfReviews;
import io.kapi.apis.SystemNamespaces;
import io.kapi.endpoint.ApiRouter;
import io.kapi.endpoint.DelegationChain;
import io.kapi.endpoint.NegotiatedWriter;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.SchemaFieldValidation;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.endpoint.discovery.DiscoveryHandler;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.openapi.OpenApiHandler;
import io.kapi.endpoint.table.TableConvertor;
import io.kapi.endpoint.watch.WatchConfig;
import io.kapi.endpoint.watch.WatchHandler;
import io.kapi.health.HealthCheck;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.machinery.schema.Schemas;
import io.kapi.machinery.validation.SchemaValidator;
import io.kapi.registry.Registry;
import io.kapi.storage.Storage;
import java.time.Clock;
import java.util.List;

/**
 * The Kubernetes API behind the server's filters: the delegation chain of handlers, the readiness
 * checks of its parts and its post-start hooks. {@link #close()} releases storage and threads.
 */
public record ApiAssembly(RestHandler handler, List<HealthCheck> checks, List<PostStartHook> hooks,
                          AutoCloseable resources) implements AutoCloseable {

    /** Builds the API for {@code config}; the server calls this once at start-up. */
    public static ApiAssembly create(ApiConfig config) {
        Clock clock = Clock.systemUTC();
        Schemas schemas = Schemas.load();
        ResourceTable table = ResourceTable.builtin();
        Storage storage = StorageBackends.open(config);
        Registry registry = new Registry(table.resources(), storage, new BuiltinStrategies(),
                MetadataRules.create(), clock);
        TableConvertor tables = TableConvertor.create(schemas);
        Codecs codecs = new Codecs(
                (request, expected) -> RequestDecoder.decode(request.header("Content-Type"), request.body(), expected),
                new NegotiatedWriter(tables, clock),
                new SchemaFieldValidation(new SchemaValidator(schemas)));
        OpenApiHandler openApi = new OpenApiHandler(table, schemas, "v1.34.0");
        RestHandler api = new DelegationChain(List.of(
                new DiscoveryHandler(table, DiscoveryHandler.hostPort(config.advertiseAddress(), config.securePort())),
                openApi,
                new ApiRouter(registry, codecs, SelfReviews.handlers(codecs),
                        new WatchHandler(WatchConfig.DEFAULT, tables, clock))));
        List<HealthCheck> checks = List.of(new StorageHealth("etcd", storage), new StorageHealth("etcd-readiness", storage));
        List<PostStartHook> hooks = List.of(new SystemNamespaces(registry.namespaces()), new OpenApiWarmUp(openApi));
        AutoCloseable resources = () -> {
            registry.close();
            storage.close();
        };
        return new ApiAssembly(api, checks, hooks, resources);
    }

    @Override
    public void close() throws Exception {
        resources.close();
    }
}
