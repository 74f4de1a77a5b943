package io.kapi.endpoint.routing;

import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.CreateHandler;
import io.kapi.endpoint.handlers.DeleteCollectionHandler;
import io.kapi.endpoint.handlers.DeleteHandler;
import io.kapi.endpoint.handlers.GetHandler;
import io.kapi.endpoint.handlers.ListHandler;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.StatusHandler;
import io.kapi.endpoint.handlers.UnsafeDeletion;
import io.kapi.endpoint.handlers.UpdateHandler;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.request.RequestInfo;
import io.kapi.request.Verb;
import java.util.Map;

/**
 * Routes resource requests ({@code /api/v1/...}, {@code /apis/{g}/{v}/...}) to the verb handler the
 * table below names, after checking that the resource exists and supports the verb. Paths that are
 * not resource requests (discovery documents) fall through to the next handler. A deprecated custom
 * resource version's warning goes with every request to it.
 */
public final class ApiRouter implements RestHandler {

    private final Registry registry;
    private final VerbHandler get;
    private final VerbHandler list;
    private final VerbHandler create;
    private final VerbHandler update;
    private final VerbHandler patch;
    private final VerbHandler delete;
    private final VerbHandler deleteCollection;
    private final VerbHandler watch;
    private final VerbHandler status;
    private final Map<String, VerbHandler> subresources;
    private final Map<GroupVersionResource, VerbHandler> computed;

    /**
     * @param patch the PATCH handler (also for {@code status})
     * @param subresources handlers of subresources other than {@code status}, by subresource name
     *        ({@code scale}, {@code finalize}, ...); the resource table says which resources have them
     * @param computed handlers of resources that are computed rather than stored (reviews), by resource
     * @param watch the handler of the watch verb
     * @param unsafe who may delete objects whose stored value cannot be read
     */
    public ApiRouter(Registry registry, Codecs codecs, VerbHandler patch, Map<String, VerbHandler> subresources,
                     Map<GroupVersionResource, VerbHandler> computed, VerbHandler watch, UnsafeDeletion unsafe) {
        this.subresources = Map.copyOf(subresources);
        this.registry = registry;
        this.computed = Map.copyOf(computed);
        this.get = new GetHandler(codecs);
        this.list = new ListHandler(codecs);
        this.create = new CreateHandler(codecs);
        this.update = new UpdateHandler(codecs);
        this.patch = patch;
        this.delete = new DeleteHandler(codecs, unsafe);
        this.deleteCollection = new DeleteCollectionHandler(codecs);
        this.watch = watch;
        this.status = new StatusHandler(codecs);
    }

    @Override
    public RestResponse handle(RestRequest request) {
        RequestInfo info = request.requireContext().info();
        if (!info.resourceRequest()) {
            return null;
        }
        ApiResource resource = registry.resource(info.group(), info.version(), info.resource())
                .orElse(null);
        if (resource == null) {
            if (registry.servesGroupVersion(info.group(), info.version())) {
                throw ApiException.pathNotFound();
            }
            return null;
        }
        if (info.verb() == null) {
            throw ApiException.methodNotAllowed();
        }
        checkScope(resource, info);
        VerbHandler special = computed.get(resource.gvr());
        if (special != null) {
            warnIfDeprecated(request, registry.model().table().facts(resource));
            return special.handle(new ResourceRequest(request, resource, null));
        }
        ResourceStore store = registry.store(resource).orElseThrow(() -> notSupportedYet(resource, info));
        warnIfDeprecated(request, store.definition().facts());
        ResourceRequest routed = new ResourceRequest(request, resource, store);
        if (!info.subresource().isEmpty()) {
            return subresource(routed);
        }
        if (!resource.supports(info.verb().apiName()) || !routable(info)) {
            throw ApiException.methodNotAllowed();
        }
        String spanName = spanName(info.verb());
        if (spanName == null || !Tracing.enabled()) {
            return handler(info.verb()).handle(routed);
        }
        try (TraceScope span = Tracing.start(spanName, "audit-id", request.requireContext().auditId())) {
            return handler(info.verb()).handle(routed);
        }
    }

    /** kube's handler spans ({@code Create}, {@code Get}, ...); none for a watch, which lasts. */
    private static String spanName(Verb verb) {
        return switch (verb) {
            case GET -> "Get";
            case LIST -> "List";
            case CREATE -> "Create";
            case UPDATE -> "Update";
            case PATCH -> "Patch";
            case DELETE -> "Delete";
            case DELETECOLLECTION -> "DeleteCollection";
            default -> null;
        };
    }

    /**
     * Namespaced resources are served under {@code namespaces/{ns}/} for every verb and at the top
     * level only for list and watch; cluster-scoped ones never under a namespace.
     */
    private static void checkScope(ApiResource resource, RequestInfo info) {
        boolean namespacePath = !info.namespace().isEmpty() && !resource.name().equals("namespaces");
        if (resource.namespaced() && !namespacePath) {
            if (!info.name().isEmpty()) {
                throw ApiException.pathNotFound();
            }
            if (info.verb() != Verb.LIST && info.verb() != Verb.WATCH) {
                throw ApiException.methodNotAllowed();
            }
        } else if (!resource.namespaced() && namespacePath) {
            throw ApiException.pathNotFound();
        }
    }

    private RestResponse subresource(ResourceRequest r) {
        String path = r.info().subresource();
        int slash = path.indexOf('/');
        ApiResource.Subresource sub = r.resource().subresource(slash < 0 ? path : path.substring(0, slash));
        if (sub == null || r.info().name().isEmpty() || (slash >= 0 && !sub.name().equals("proxy"))) {
            throw ApiException.pathNotFound();
        }
        if (!sub.verbs().contains(r.info().verb().apiName())) {
            throw ApiException.methodNotAllowed();
        }
        if (sub.name().equals("status")) {
            return r.info().verb() == Verb.PATCH ? patch.handle(r) : status.handle(r);
        }
        VerbHandler handler = subresources.get(sub.name());
        if (handler != null) {
            return handler.handle(r);
        }
        throw notSupportedYet(r.resource(), r.info());
    }

    /** Whether the verb has a route at this path: create only on collections, update and patch only on objects. */
    private static boolean routable(RequestInfo info) {
        return switch (info.verb()) {
            case CREATE -> info.name().isEmpty();
            case UPDATE, PATCH -> !info.name().isEmpty();
            default -> true;
        };
    }

    private VerbHandler handler(Verb verb) {
        return switch (verb) {
            case GET -> get;
            case LIST -> list;
            case CREATE -> create;
            case UPDATE -> update;
            case PATCH -> patch;
            case DELETE -> delete;
            case DELETECOLLECTION -> deleteCollection;
            case WATCH -> watch;
            case POST, PUT, HEAD, OPTIONS, IMPERSONATE, BIND, ESCALATE, APPROVE, SIGN, USE, UNSAFE_DELETE ->
                    throw ApiException.methodNotAllowed();
        };
    }

    /** kube's deprecation warning on every request to a deprecated resource (a built-in's, a CRD version's). */
    private static void warnIfDeprecated(RestRequest request, ResourceFacts facts) {
        if (facts.deprecation() != null) {
            request.requireContext().warnings().add(facts.deprecation());
        }
    }

    /** A clear answer for what kube-apiserver serves and Kapi does not yet. */
    private static ApiException notSupportedYet(ApiResource resource, RequestInfo info) {
        GroupVersionResource gvr = resource.gvr();
        String what = info.subresource().isEmpty() ? gvr.qualifiedResource()
                : gvr.qualifiedResource() + "/" + info.subresource();
        return new ApiException(StatusReason.METHOD_NOT_ALLOWED, 405,
                "%s on %s is not supported by this server yet".formatted(info.verb(), what),
                ApiException.Details.NONE);
    }
}
