package io.kapi.assembly;

import io.kapi.admission.AdmissionChain;
import io.kapi.admission.policy.PolicyTypeChecker;
import io.kapi.admission.policy.ServedTypes;
import io.kapi.aggregator.Aggregator;
import io.kapi.aggregator.AuthenticationInfo;
import io.kapi.apiextensions.registry.CrdStrategy;
import io.kapi.apiextensions.serving.CrdController;
import io.kapi.apiextensions.serving.CustomResourceVersions;
import io.kapi.apiextensions.validation.CrdValidation;
import io.kapi.apis.AccessReviews;
import io.kapi.apis.ComponentStatuses;
import io.kapi.apis.NamespaceFinalize;
import io.kapi.apis.OpenIdDiscovery;
import io.kapi.apis.SelfReviews;
import io.kapi.apis.SystemNamespaces;
import io.kapi.apis.TokenReviews;
import io.kapi.apis.bootstrap.BootstrapHooks;
import io.kapi.apis.bootstrap.RbacPolicy;
import io.kapi.apis.groups.BuiltinBehaviours;
import io.kapi.apis.groups.ServerHooks;
import io.kapi.apis.rbac.RbacEscalation;
import io.kapi.apis.services.ServiceAllocators;
import io.kapi.apis.services.ServiceRanges;
import io.kapi.apis.subresources.EventTtl;
import io.kapi.apis.subresources.ServiceAccountKeys;
import io.kapi.apis.subresources.ServiceAccountToken;
import io.kapi.apis.subresources.Subresources;
import io.kapi.audit.Auditor;
import io.kapi.authn.Authentications;
import io.kapi.authn.Authenticator;
import io.kapi.authz.Authorizer;
import io.kapi.authz.modes.AuthorizationModes;
import io.kapi.certs.TlsMaterial;
import io.kapi.client.LocalClient;
import io.kapi.client.Loopback;
import io.kapi.controllers.LegacyTokenTracking;
import io.kapi.controllers.LegacyTokenTrackingSince;
import io.kapi.encryption.EncryptionAtRest;
import io.kapi.endpoint.DelegationChain;
import io.kapi.endpoint.ListEncoders;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.discovery.DiscoveryHandler;
import io.kapi.endpoint.handlers.ApplyHandler;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.FieldTracking;
import io.kapi.endpoint.handlers.KubeBodyDecoder;
import io.kapi.endpoint.handlers.NegotiatedWriter;
import io.kapi.endpoint.handlers.PatchHandler;
import io.kapi.endpoint.handlers.ScaleHandler;
import io.kapi.endpoint.handlers.UnsafeDeletion;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.endpoint.openapi.OpenApiHandler;
import io.kapi.endpoint.routing.ApiRouter;
import io.kapi.endpoint.table.TableConvertor;
import io.kapi.endpoint.watch.WatchConfig;
import io.kapi.endpoint.watch.WatchHandler;
import io.kapi.flowcontrol.FlowControl;
import io.kapi.flowcontrol.FlowControls;
import io.kapi.flowcontrol.ObjectCounts;
import io.kapi.health.HealthCheck;
import io.kapi.health.NamedCheck;
import io.kapi.health.PostStartHook;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.apply.FieldManagers;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.machinery.schema.Schemas;
import io.kapi.machinery.validation.SchemaValidator;
import io.kapi.metrics.Definition;
import io.kapi.metrics.Metrics;
import io.kapi.metrics.Stability;
import io.kapi.registry.AtRest;
import io.kapi.registry.LegacyKeys;
import io.kapi.registry.ReadPath;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.StoreServices;
import io.kapi.server.Background;
import io.kapi.server.HandlerChain;
import io.kapi.server.KapiServer;
import io.kapi.server.ServerConfig;
import io.kapi.server.VersionHandler;
import io.kapi.server.filter.FilterChain;
import io.kapi.server.filter.ServerRequest;
import io.kapi.storage.ObservedStorage;
import io.kapi.storage.Storage;
import io.kapi.tracing.Tracing;
import io.kapi.user.SystemUsers;
import io.kapi.webhook.WebhookClient;
import java.io.IOException;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The Kubernetes API behind the server's filters: the delegation chain of handlers, the readiness
 * checks of its parts and its post-start hooks. {@link #close()} releases storage and threads.
 *
 * @param storage the store behind the registry (owned by this assembly: closed by {@link #close()})
 * @param metrics what the server records ({@code /metrics}); its parts register their families on it
 */
public record ApiAssembly(RestHandler handler, List<HealthCheck> checks, List<PostStartHook> hooks,
                          Registry registry, Storage storage, Authenticator authenticator, Authorizer authorizer,
                          Loopback loopback, Metrics metrics, AutoCloseable resources, FlowControl flowControl)
        implements AutoCloseable {

    /** The loopback identity's User-Agent: its managedFields entries say {@code kube-apiserver}. */
    public static final String APISERVER_AGENT = "kube-apiserver/v1.34.0 (linux/amd64) kubernetes/kapi";
    /** The standalone controllers' User-Agent, as kube-controller-manager's. */
    static final String CONTROLLER_AGENT = "kube-controller-manager/v1.34.0 (linux/amd64) kubernetes/kapi";
    /** The scheduler's User-Agent, as kube-scheduler's. */
    static final String SCHEDULER_AGENT = "kube-scheduler/v1.34.0 (linux/amd64) kubernetes/kapi";

    /** Builds the API for {@code config}; the server calls this once at start-up. */
    public static ApiAssembly create(ApiConfig config) {
        return create(config, Auditor.DISABLED);
    }

    /**
     * The API of {@code config}, its own in-process requests (the controllers kube-controller-manager would
     * run, the bootstrap writes) audited by {@code auditor}, as kube audits those.
     */
    public static ApiAssembly create(ApiConfig config, Auditor auditor) {
        Clock clock = Clock.systemUTC();
        Metrics metrics = createMetrics(config);
        // the schemas (a large JSON document to parse, once per JVM) load while the storage opens
        CompletableFuture<Schemas> loading = Background.start("kapi-schemas", Schemas::builtin);
        ResourceTable table = ResourceTable.builtin(config.features().apis());
        Storage storage = StorageBackends.open(config);
        KeyOwners owners = new KeyOwners();
        Storage metered = new ObservedStorage(storage, metrics.storage(), owners);
        metrics.storage().objectCounts(owners::objectCounts);
        metrics.storage().databaseSize(storage::sizeBytes);
        Schemas schemas = Background.join(loading);
        FieldManagers fieldManagers = new FieldManagers(schemas);
        ServiceAllocators services = new ServiceAllocators(
                ServiceRanges.parse(config.serviceClusterIpRange(), config.serviceNodePortRange()), metered,
                Duration.ofMinutes(3), Duration.ofMinutes(1), clock);
        SchemaValidator schemaValidator = new SchemaValidator(schemas);
        EncryptionAtRest encryption = config.encryption().configFile() == null ? null
                : EncryptionAtRest.open(config.encryption(), metrics.encryption(), "apiserver-" + java.util.UUID.randomUUID());
        AtRest atRest = (encryption == null ? AtRest.PLAIN : new AtRest(AtRest.JSON, encryption::transformer))
                .withUnsafeDeletionGate(config.features().gates().enabled("AllowUnsafeMalformedObjectDeletion"));
        LegacyKeys.migrate(storage, atRest);
        StoreServices storeServices = new StoreServices(MetadataRules.create(), schemaValidator,
                fieldManagers, () -> AdmissionChain.NONE, clock, atRest.withMediaType(config.storageMediaType()));
        var authorizationRef = new java.util.concurrent.atomic.AtomicReference<AuthorizationModes.Chain>();
        AdmissionWiring admission = new AdmissionWiring(config.admission(), config.features().gates(), fieldManagers,
                clock, metrics.admission());
        Registry registry = new Registry(table.resources(), metered,
                new BuiltinBehaviours(new ServerHooks(services::decorate,
                        s -> new CrdStrategy(s, CrdValidation.withCel(), clock))), storeServices,
                lookup -> admission.chain(lookup)
                        .withFirst(new RbacEscalation(() -> authorizationRef.get().authorizer(),
                                () -> authorizationRef.get() == null ? null : authorizationRef.get().rbac()))
                        .withMetrics(metrics.admission()),
                ReadPath.WATCH_CACHE);
        owners.bind(registry);
        registry.caches().observe(owners.cacheMetrics(metrics.watches()));
        services.connect(registry);
        fieldManagers.convertThrough(registry);
        TableConvertor tables = TableConvertor.create(schemas, new TablePrinting(registry));
        ListEncoders listEncoders = ListEncoders.perCore();
        Codecs codecs = new Codecs(new KubeBodyDecoder(schemaValidator), new NegotiatedWriter(tables, clock, listEncoders),
                new FieldTracking(fieldManagers, clock));
        OpenApiModels models = new OpenApiModels(registry, schemas);
        Aggregator aggregator = Aggregator.create(config.aggregator(), registry);
        OpenApiHandler openApi = new OpenApiHandler(models, aggregator::openApiV3, aggregator::openApiV2, "v1.34.0");
        String issuer = config.serviceAccountIssuer() == null
                ? ServiceAccountToken.DEFAULT_ISSUER : config.serviceAccountIssuer();
        ServiceAccountKeys keys = signingKeys(config);
        List<PublicKey> verifying = new ArrayList<>(Authentications.publicKeys(
                config.authentication().serviceAccounts().keyFiles()));
        verifying.add(keys.publicKey());
        List<String> issuers = config.authentication().serviceAccounts().issuers().isEmpty() ? List.of(issuer)
                : config.authentication().serviceAccounts().issuers();
        LegacyTokenTracking legacyTokens = new LegacyTokenTracking(clock);
        Authentications authentications = Authentications.build(config.authentication(),
                AuthorizationModes.effective(config.authorizationModes(), config.authorization()), verifying, issuers,
                registry, legacyTokens, clock);
        SharedInformers informers = new SharedInformers(registry::store);
        AuthorizationModes.Chain authorization = AuthorizationModes.build(config.authorizationModes(),
                new AuthorizationModes.Sources(informers, registry, () -> RbacPolicy.load().nodeRules(),
                        metrics.security()::decided),
                config.authorization());
        informers.start();
        authorizationRef.set(authorization);
        Authorizer authorizer = authorization.authorizer();
        RequestActivity activity = new RequestActivity();
        RestHandler api = activity.counting(handlers(config, aggregator, schemas, openApi, registry, codecs, tables, keys,
                issuer, authentications, new AccessReviews(authorizer, authorization.rules()), storage, metrics, clock,
                new UnsafeDeletion(config.features().gates().enabled("AllowUnsafeMalformedObjectDeletion"),
                        () -> authorizer)));
        ServerConfig.Observability observability = observability(metrics, registry);
        Loopback loopback = loopback(api, authorizer, registry, observability, auditor);
        LocalClient apiserver = loopback.as(SystemUsers.APISERVER, APISERVER_AGENT);
        FlowControls.Wired flowControl = FlowControls.create(config.flowControl(), informers,
                apiserver.resource("flowcontrol.apiserver.k8s.io", "v1", "flowschemas"),
                (group, version, resource) -> registry.store(new GroupVersionResource(group, version, resource))
                        .flatMap(ResourceStore::cacheCounts)
                        .map(c -> new ObjectCounts.Counts(c.objects(), c.watchers())).orElse(null), metrics);
        admission.bind(registry, informers, apiserver, authorizer);
        legacyTokens.bind(apiserver);
        // informer-sync: the informers of the request path (authentication, authorization, flow control, admission)
        Set<GroupVersionResource> requestPath = informers.requested();
        HealthCheck informerSync = new InformerSync(informers, () -> {
            Set<GroupVersionResource> all = new HashSet<>(requestPath);
            all.addAll(admission.informers().resources());
            return all;
        });
        List<HealthCheck> checks = new ArrayList<>(List.of(StorageHealth.liveness(storage),
                StorageHealth.readiness(storage), informerSync));
        if (encryption != null) {
            encryption.checks().forEach(c -> checks.add(new NamedCheck(c.name(), c::check)));
        }
        BootstrapHooks bootstrap = BootstrapHooks.create(apiserver, registry, informers, storage, new BootstrapHooks.Endpoint(
                config.serviceClusterIpRange(), config.advertiseAddress(), config.securePort()),
                config.effectiveControllers().enabled("clusterrole-aggregation-controller"));
        // the bootstrap hooks write into the system namespaces: they wait for them rather than fail and retry
        List<PostStartHook> afterNamespaces = new ArrayList<>(bootstrap.hooks());
        afterNamespaces.add(new AuthenticationInfo(apiserver.resource("", "v1", "configmaps"), config.authentication()));
        List<PostStartHook> bootstrapHooks = new ArrayList<>(HookOrder.after(
                new SystemNamespaces(apiserver.resource("", "v1", "namespaces")), afterNamespaces));
        bootstrapHooks.add(1, services);
        CacheStart cacheStart = CacheStart.after(registry.caches(), bootstrapHooks);
        List<PostStartHook> hooks = new ArrayList<>(cacheStart.prerequisites());
        CrdController crds = new CrdController(registry, informers, apiserver,
                new CustomResourceVersions(schemaValidator, fieldManagers, new WebhookClient(registry),
                        metrics.admission()), clock);
        OpenApiWarmUp openApiV3WarmUp = OpenApiWarmUp.v3(openApi, cacheStart, Duration.ofSeconds(1),
                config.warmOpenApi(), activity);
        OpenApiWarmUp openApiV2WarmUp = OpenApiWarmUp.v2(openApi, cacheStart, Duration.ofSeconds(1),
                config.warmOpenApi(), activity);
        List<PostStartHook> apiServices = aggregator.controllers(apiserver, informers,
                gv -> registry.model().table().groupVersions().contains(gv), clock, metrics.admission());
        hooks.addAll(List.of(openApiV3WarmUp, openApiV2WarmUp, cacheStart, admission.informers()));
        hooks.addAll(crds.hooks());
        hooks.addAll(apiServices);
        hooks.addAll(flowControl.hooks());
        checks.add(bootstrap.autoregisterCompletion());
        EventTtl eventTtl = new EventTtl(registry, config.eventTtl(), clock);
        hooks.add(eventTtl);
        LegacyTokenTrackingSince legacyTokensSince = new LegacyTokenTrackingSince(
                apiserver.resource("", "v1", "configmaps"), informers, clock);
        hooks.add(HookOrder.afterCaches(cacheStart, legacyTokensSince));
        List<AutoCloseable> resources = new ArrayList<>(List.of(openApiV3WarmUp, openApiV2WarmUp, listEncoders, crds,
                aggregator, bootstrap, services, eventTtl, legacyTokensSince, authorization.resources()));
        InProcessControllers controllers = InProcessControllers.create(config, loopback, registry, informers, keys,
                new PolicyTypeChecker(new ServedTypes(() -> models.get().table(), () -> models.get().schemas())));
        hooks.addAll(controllers.hooks());
        resources.addAll(controllers.resources());
        resources.add(flowControl.resources());
        resources.add(informers);
        resources.add(registry);
        resources.add(storage);
        if (encryption != null) {
            resources.add(encryption);
        }
        return new ApiAssembly(flowControl.withDebugEndpoints(api), checks, List.copyOf(hooks), registry, storage,
                authentications.request(), authorizer, loopback, metrics, () -> closeAll(resources), flowControl.gate());
    }

    /**
     * The server's way to itself: the API behind the filters that matter in-process (request context,
     * panic recovery, authorization, write options); the identity comes with each request.
     */
    private static Loopback loopback(RestHandler api, Authorizer authorizer, Registry registry,
                                     ServerConfig.Observability observability, Auditor auditor) {
        FilterChain chain = HandlerChain.inProcess(authorizer, observability, auditor, api);
        return new Loopback(request -> chain.proceed(new ServerRequest(request, List.of(), "127.0.0.1")),
                gvr -> registry.resource(gvr.group(), gvr.version(), gvr.resource()));
    }

    /**
     * The listener's settings for this API on {@code bindAddress:port}: kube-apiserver's defaults, this
     * API's authenticator and authorizer. {@code bin/kapi} and the test library adjust them (flags,
     * authentication off) and {@link #listen} with them.
     */
    public ServerConfig serverConfig(String bindAddress, int port, TlsMaterial tls) {
        return ServerConfig.of(bindAddress, port, tls).withAuthenticator(authenticator).withAuthorizer(authorizer)
                .withObservability(observability(metrics, registry))
                .withFlowControl(flowControl);
    }

    /** The server's metrics, with its build's version and its feature gates. */
    private static Metrics createMetrics(ApiConfig config) {
        Map<String, Metrics.Feature> features = new java.util.LinkedHashMap<>();
        config.features().gates().states().forEach((name, state) ->
                features.put(name, new Metrics.Feature(state.getKey(), state.getValue())));
        Metrics metrics = Metrics.create(config.metrics(), VersionHandler.info(), features);
        metrics.counterReading(Definition.of("kapi_tracing_dropped_spans_total", Stability.ALPHA,
                "Spans the tracing exporter dropped because its queue was full (a slow or absent collector)."),
                Tracing::droppedSpans);
        return metrics;
    }

    /**
     * Requests are recorded in {@code metrics}, with series only for resources {@code registry} serves; a
     * request of a deprecated one is noted in {@code apiserver_requested_deprecated_apis}, as kube's
     * deprecation filter does.
     */
    private static ServerConfig.Observability observability(Metrics metrics, Registry registry) {
        return new ServerConfig.Observability(metrics, info -> {
            var definition = registry.definition(new GroupVersionResource(info.group(), info.version(), info.resource()));
            if (definition.isEmpty()) {
                return null;
            }
            String removed = definition.get().facts().removedRelease();
            if (removed != null) {
                String subresource = info.subresource().split("/", 2)[0]; // proxy/<path>: no series per path
                metrics.requests().deprecatedApi(info.group(), info.version(), info.resource(), subresource, removed);
            }
            return definition.get().api().gvr(); // the registry's strings, the same for every request
        });
    }

    /**
     * Serves this API over HTTPS with {@code config} and runs its post-start hooks in the background.
     *
     * @throws IOException if the address cannot be bound; nothing is left listening (this API stays open)
     */
    public KapiServer listen(ServerConfig config) throws IOException {
        return KapiServer.start(config, handler, checks, hooks);
    }

    /**
     * Serves this API without sockets, behind the listener's filter chain, authorized by
     * {@code authorizer} (null: this API's own), once its post-start hooks have run in order on this
     * thread (as a listening server runs them, before it is ready).
     *
     * @throws IllegalStateException when a hook fails
     */
    public InMemoryServer inMemory(Authorizer authorizer) {
        for (PostStartHook hook : hooks) {
            try {
                hook.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted in post-start hook " + hook.name(), e);
            } catch (Exception e) {
                throw new IllegalStateException("post-start hook " + hook.name() + " failed", e);
            }
        }
        return new InMemoryServer(authorizer == null ? this.authorizer : authorizer, handler);
    }

    /** The service-account signing key: the given file, else one kept in the data directory (or in memory). */
    private static ServiceAccountKeys signingKeys(ApiConfig config) {
        var file = config.authentication().serviceAccounts().signingKeyFile();
        if (file != null) {
            return ServiceAccountKeys.fromFile(file);
        }
        return config.storageBackend().equals("memory") ? ServiceAccountKeys.ephemeral()
                : ServiceAccountKeys.inDirectory(config.dataDir());
    }

    /** The delegation chain: the aggregator's proxy, discovery, OpenAPI, issuer discovery, then the resources. */
    private static RestHandler handlers(ApiConfig config, Aggregator aggregator, Schemas schemas, OpenApiHandler openApi,
                                        Registry registry, Codecs codecs, TableConvertor tables, ServiceAccountKeys keys,
                                        String issuer, Authentications authentications, AccessReviews access,
                                        Storage storage, Metrics metrics, Clock clock,
                                        UnsafeDeletion unsafe) {
        PatchSchemas patchSchemas = new PatchSchemas(schemas);
        Subresources subresources = Subresources.create(registry, codecs, patchSchemas, keys, issuer,
                config.authentication().serviceAccounts().maxTokenExpiration(), clock);
        Map<String, VerbHandler> subresourceHandlers = new HashMap<>(subresources.handlers());
        subresourceHandlers.put("scale", new ScaleHandler(codecs, patchSchemas));
        subresourceHandlers.put("finalize", new NamespaceFinalize(codecs));
        Map<GroupVersionResource, VerbHandler> computed = new HashMap<>(SelfReviews.handlers(codecs, access));
        computed.put(new GroupVersionResource("authentication.k8s.io", "v1", "tokenreviews"),
                new TokenReviews(codecs, authentications.tokens()));
        computed.putAll(subresources.computed());
        computed.put(new GroupVersionResource("", "v1", "componentstatuses"), new ComponentStatuses(codecs, storage::healthy));
        return new DelegationChain(List.of(
                aggregator.proxy(),
                new DiscoveryHandler(() -> registry.model().table(), aggregator::externalVersions,
                        DiscoveryHandler.hostPort(config.advertiseAddress(), config.securePort())),
                openApi,
                new OpenIdDiscovery(issuer, subresources.keys()::publicJwks),
                new ApiRouter(registry, codecs, new PatchHandler(codecs, patchSchemas, new ApplyHandler(codecs)),
                        subresourceHandlers, computed, new WatchHandler(WatchConfig.DEFAULT, tables, clock, metrics.watches()),
                        unsafe)));
    }

    /** Closes in order: controllers and hooks first, storage last. */
    private static void closeAll(List<AutoCloseable> resources) throws Exception {
        for (AutoCloseable r : resources) {
            r.close();
        }
    }

    @Override
    public void close() throws Exception {
        resources.close();
    }
}
