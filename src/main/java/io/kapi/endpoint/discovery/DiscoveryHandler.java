package io.kapi.endpoint.discovery;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.resource.ResourceTable;
import java.util.HashMap;
import java.util.Map;

/**
 * Serves discovery as kube-apiserver does: {@code GET /api}, {@code /api/v1}, {@code /apis},
 * {@code /apis/{group}}, {@code /apis/{group}/{version}}, and on {@code /api} and {@code /apis} the
 * aggregated {@code APIGroupDiscoveryList} (v2 or v2beta1) when the Accept header asks for it.
 *
 * <p>Every document is built and encoded once, at construction, and answered from memory with an
 * ETag; a matching {@code If-None-Match} gets 304. Paths outside discovery answer null (not served
 * here); an unknown group or version under {@code /apis} or {@code /api} is a 404 (pathNotFound);
 * a method other than GET/HEAD on a discovery path is a 405.
 */
public final class DiscoveryHandler implements RestHandler {

    static final String JSON = "application/json";

    private final Encoded apiVersions;
    private final Encoded groupList;
    private final Map<String, Encoded> groups = new HashMap<>();
    private final Map<GroupVersion, Encoded> resourceLists = new HashMap<>();
    private final Map<DiscoveryAccept.Aggregated, Encoded> aggregatedCore = new HashMap<>();
    private final Map<DiscoveryAccept.Aggregated, Encoded> aggregatedGroups = new HashMap<>();

    /**
     * @param table the served resources
     * @param serverAddress {@code host:port} clients reach this server at, for
     *                      {@code serverAddressByClientCIDRs} of {@code /api}; see {@link #hostPort}
     */
    public DiscoveryHandler(ResourceTable table, String serverAddress) {
        DiscoveryDocuments docs = new DiscoveryDocuments(table);
        apiVersions = Encoded.json(docs.apiVersions(serverAddress), JSON);
        groupList = Encoded.json(docs.groupList(), JSON);
        for (GroupVersion gv : table.groupVersions()) {
            resourceLists.put(gv, Encoded.json(docs.resourceList(gv), JSON));
            if (!gv.group().isEmpty()) {
                groups.computeIfAbsent(gv.group(), g -> Encoded.json(docs.group(g), JSON));
            }
        }
        for (DiscoveryAccept.Aggregated a : DiscoveryAccept.Aggregated.values()) {
            aggregatedCore.put(a, Encoded.json(docs.aggregated(true, a.apiVersion()), a.contentType()));
            aggregatedGroups.put(a, Encoded.json(docs.aggregated(false, a.apiVersion()), a.contentType()));
        }
    }

    /** {@code host:port} as Go's {@code net.JoinHostPort} writes it (IPv6 literals in brackets). */
    public static String hostPort(String host, int port) {
        return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
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
        Encoded doc = core
                ? resourceLists.get(new GroupVersion("", parts[2]))
                : parts.length == 3 ? groups.get(parts[2]) : resourceLists.get(new GroupVersion(parts[2], parts[3]));
        if (doc == null) {
            throw ApiException.pathNotFound();
        }
        DiscoveryAccept.negotiate(request.header("Accept"), false);
        return doc.respond(request);
    }

    private RestResponse root(RestRequest request, boolean core) {
        DiscoveryAccept.Aggregated aggregated = DiscoveryAccept.negotiate(request.header("Accept"), true);
        if (aggregated == null) {
            return (core ? apiVersions : groupList).respond(request).withHeader("Vary", "Accept");
        }
        return (core ? aggregatedCore : aggregatedGroups).get(aggregated).respond(request)
                .withHeader("Vary", "Accept").withHeader("Cache-Control", "public");
    }

    private static String trimSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
