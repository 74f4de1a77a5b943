package io.kapi.endpoint.discovery;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.resource.ResourceTable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Serves discovery as kube-apiserver does: {@code GET /api}, {@code /api/v1}, {@code /apis},
 * {@code /apis/{group}}, {@code /apis/{group}/{version}}, and on {@code /api} and {@code /apis} the
 * aggregated {@code APIGroupDiscoveryList} (v2 or v2beta1) when the Accept header asks for it.
 *
 * <p>Every document is built and encoded once per state of the resource table, and answered from
 * memory with an ETag; a matching {@code If-None-Match} gets 304. Paths outside discovery answer null (not served
 * here); an unknown group or version under {@code /apis} or {@code /api} is a 404 (pathNotFound);
 * a method other than GET/HEAD on a discovery path is a 405.
 */
public final class DiscoveryHandler implements RestHandler {

    static final String JSON = "application/json";
    static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

    private final Supplier<ResourceTable> tables;
    private final Supplier<List<ExternalVersion>> externals;
    private final String serverAddress;
    private volatile Documents documents;

    /** The encoded documents of one state of the resource table and of the aggregated group-versions. */
    private record Documents(ResourceTable table, List<ExternalVersion> externals, Encoded apiVersions,
                             Encoded groupList, Map<String, Encoded> groups,
                             Map<GroupVersion, Encoded> resourceLists,
                             Map<DiscoveryAccept.Aggregated, Encoded> aggregatedCore,
                             Map<DiscoveryAccept.Aggregated, Encoded> aggregatedGroups) {

        static Documents of(ResourceTable table, List<ExternalVersion> externals, String serverAddress) {
            DiscoveryDocuments docs = new DiscoveryDocuments(table, externals);
            Map<String, Encoded> groups = new HashMap<>();
            Map<GroupVersion, Encoded> resourceLists = new HashMap<>();
            for (GroupVersion gv : table.groupVersions()) {
                resourceLists.put(gv, Encoded.json(docs.resourceList(gv), JSON, PROTOBUF));
                if (!gv.group().isEmpty()) {
                    groups.computeIfAbsent(gv.group(), g -> Encoded.json(docs.group(g), JSON, PROTOBUF));
                }
            }
            for (ExternalVersion e : externals) {
                groups.computeIfAbsent(e.groupVersion().group(), g -> Encoded.json(docs.group(g), JSON, PROTOBUF));
            }
            Map<DiscoveryAccept.Aggregated, Encoded> core = new HashMap<>();
            Map<DiscoveryAccept.Aggregated, Encoded> others = new HashMap<>();
            for (DiscoveryAccept.Aggregated a : DiscoveryAccept.Aggregated.values()) {
                core.put(a, Encoded.json(docs.aggregated(true, a.apiVersion()), a.contentType(), a.protobufContentType()));
                others.put(a, Encoded.json(docs.aggregated(false, a.apiVersion()), a.contentType(), a.protobufContentType()));
            }
            return new Documents(table, externals, Encoded.json(docs.apiVersions(serverAddress), JSON, PROTOBUF),
                    Encoded.json(docs.groupList(), JSON, PROTOBUF), groups, resourceLists, core, others);
        }
    }

    /**
     * @param table the served resources
     * @param serverAddress {@code host:port} clients reach this server at, for
     *                      {@code serverAddressByClientCIDRs} of {@code /api}; see {@link #hostPort}
     */
    public DiscoveryHandler(ResourceTable table, String serverAddress) {
        this(() -> table, serverAddress);
    }

    /**
     * Discovery that follows a resource table that changes (resources added and removed while serving):
     * the documents are rebuilt, with new ETags, when {@code tables} gives another table.
     */
    public DiscoveryHandler(Supplier<ResourceTable> tables, String serverAddress) {
        this(tables, List::of, serverAddress);
    }

    /**
     * Discovery of a changing resource table and of the group-versions aggregated API servers serve
     * ({@code externals}: the same list object until they change), listed after this server's own. Their
     * {@code /apis/<group>/<version>} is the aggregated server's to answer, not this handler's.
     */
    public DiscoveryHandler(Supplier<ResourceTable> tables, Supplier<List<ExternalVersion>> externals,
                            String serverAddress) {
        this.tables = tables;
        this.externals = externals;
        this.serverAddress = serverAddress;
    }

    /** The documents of the current table, built on the first discovery request and again when the table changes. */
    private Documents documents() {
        ResourceTable table = tables.get();
        List<ExternalVersion> aggregated = externals.get();
        Documents d = documents;
        if (d == null || d.table() != table || d.externals() != aggregated) {
            synchronized (this) {
                d = documents;
                if (d == null || d.table() != table || d.externals() != aggregated) {
                    d = Documents.of(table, aggregated, serverAddress);
                    documents = d;
                }
            }
        }
        return d;
    }

    /** {@code host:port} as Go's {@code net.JoinHostPort} writes it (IPv6 literals in brackets). */
    public static String hostPort(String host, int port) {
        return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
    }

    /** Serves /api, /apis and their groups and versions only, never a resource request. */
    @Override
    public boolean servesResources() {
        return false;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        String path = trimSlash(request.path());
        String[] parts = path.split("/");
        // parts[0] is "" (leading slash)
        if (parts.length < 2 || parts.length > 4 || !(parts[1].equals("api") || parts[1].equals("apis"))) {
            return null;
        }
        boolean core = parts[1].equals("api");
        if (core && parts.length > 3) {
            return null;
        }
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            throw ApiException.methodNotAllowed();
        }
        if (parts.length == 2) {
            return root(request, core);
        }
        Documents d = documents();
        Encoded doc = core
                ? d.resourceLists().get(new GroupVersion("", parts[2]))
                : parts.length == 3 ? d.groups().get(parts[2])
                : d.resourceLists().get(new GroupVersion(parts[2], parts[3]));
        if (doc == null) {
            throw ApiException.pathNotFound();
        }
        DiscoveryAccept.Choice choice = DiscoveryAccept.negotiate(request.header("Accept"), false);
        return in(choice, doc).respond(request);
    }

    private RestResponse root(RestRequest request, boolean core) {
        DiscoveryAccept.Choice choice = DiscoveryAccept.negotiate(request.header("Accept"), true);
        Documents d = documents();
        if (choice.aggregated() == null) {
            return in(choice, core ? d.apiVersions() : d.groupList()).respond(request).withHeader("Vary", "Accept");
        }
        return in(choice, (core ? d.aggregatedCore() : d.aggregatedGroups()).get(choice.aggregated())).respond(request)
                .withHeader("Vary", "Accept").withHeader("Cache-Control", "public");
    }

    /** The document in the format chosen. */
    private static Encoded in(DiscoveryAccept.Choice choice, Encoded doc) {
        return choice.protobuf() ? doc.protobuf().get() : doc;
    }

    private static String trimSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
