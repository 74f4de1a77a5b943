package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.DeepStack;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.machinery.schema.Schemas;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Serves {@code /openapi/v2} (Swagger 2.0, JSON) and {@code /openapi/v3} (the index) with
 * {@code /openapi/v3/api/v1} and {@code /openapi/v3/apis/{group}/{version}} (OpenAPI 3.0), generated
 * from the resource table and the schemas.
 *
 * <p>Documents are built on first use and encoded once; every answer carries an ETag and a matching
 * {@code If-None-Match} gets 304. A v3 request whose {@code hash} matches is marked immutable for a
 * year; a stale {@code hash} is redirected (301) to the current one, as kube-openapi does. v2 is served
 * as JSON or as gnostic protobuf (what kubectl asks for); v3 as JSON only (what kubectl asks for), a
 * request accepting neither gets 406.
 * Paths outside {@code /openapi/} answer null. The v3 index also lists the documents of aggregated API
 * servers (as kube-aggregator's OpenAPI v3 controller does), served from their last copy.
 */
public final class OpenApiHandler implements RestHandler {

    private static final System.Logger LOG = System.getLogger(OpenApiHandler.class.getName());
    private static final String JSON = OpenApiAccept.JSON;
    private static final String V3_PREFIX = "/openapi/v3/";

    private final Supplier<Model> models;
    private final Supplier<Map<String, String>> externals;
    private final Supplier<Map<String, String>> externalsV2;
    private final String version;
    private volatile V3Index index;
    private volatile Model model;
    private volatile ResourceTable table;
    private volatile Schemas schemas;
    private volatile Built built;
    /** This server's own v2 document. */
    private volatile Document v2;
    private volatile V2 v2Aggregated;
    private volatile V2Protobuf v2Protobuf;

    /**
     * The API the documents describe at one moment.
     *
     * @param version changes whenever the table or the schemas do
     */
    public record Model(long version, ResourceTable table, Schemas schemas) {
    }

    private record Built(Definitions definitions, PathPlanner planner, Map<String, Document> groupVersions) {
    }

    /** The v2 document of this server's own and one state of the aggregated servers' v2 documents. */
    private record V2(Document local, Map<String, String> source, Document document) {
    }

    /** The protobuf form of one v2 document. */
    private record V2Protobuf(Document json, Document protobuf) {
    }

    /** The v3 index of one build and one state of the aggregated documents, with those documents. */
    private record V3Index(Built built, Map<String, String> source, Map<String, Document> externals, Document index) {
    }

    /**
     * @param table the served resources
     * @param schemas the definitions
     * @param version {@code info.version} of the v2 document, e.g. {@code v1.34.0}
     */
    public OpenApiHandler(ResourceTable table, Schemas schemas, String version) {
        this(() -> new Model(0, table, schemas), version);
    }

    /**
     * Documents that follow an API that changes while serving: when {@code models} gives a new version,
     * every document is built again (lazily, on the next request) and gets new ETags and hashes.
     */
    public OpenApiHandler(Supplier<Model> models, String version) {
        this(models, Map::of, version);
    }

    /**
     * As {@link #OpenApiHandler(Supplier, String)}, with the v3 documents of aggregated API servers:
     * {@code externals} maps a key such as {@code apis/wardle.example.com/v1alpha1} to the JSON an aggregated
     * server serves there (the same map object until they change). This server's own documents win.
     */
    public OpenApiHandler(Supplier<Model> models, Supplier<Map<String, String>> externals, String version) {
        this(models, externals, Map::of, version);
    }

    /**
     * As {@link #OpenApiHandler(Supplier, Supplier, String)}, with the v2 documents of aggregated API servers too:
     * {@code externalsV2} maps the same keys to the {@code /openapi/v2} JSON of the server behind that
     * group-version (the same map object until they change); their paths of that group-version and their
     * definitions are merged into {@code /openapi/v2} ({@link AggregatedSwagger}).
     */
    public OpenApiHandler(Supplier<Model> models, Supplier<Map<String, String>> externals,
                          Supplier<Map<String, String>> externalsV2, String version) {
        this.models = models;
        this.externals = externals;
        this.externalsV2 = externalsV2;
        this.version = version;
        follow();
    }

    /** Takes the current model; forgets the documents built for an older one. */
    private void follow() {
        Model m = models.get();
        Model seen = model;
        if (seen != null && seen.version() == m.version()) {
            return;
        }
        synchronized (this) {
            if (model == null || model.version() != m.version()) {
                table = m.table();
                schemas = m.schemas();
                built = null;
                v2 = null;
                v2Aggregated = null;
                v2Protobuf = null;
                model = m;
            }
        }
    }

    /** Serves /openapi/v2 and /openapi/v3 only, never a resource request. */
    @Override
    public boolean servesResources() {
        return false;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        follow();
        String path = request.path();
        if (!path.equals("/openapi/v2") && !path.equals("/openapi/v3") && !path.startsWith(V3_PREFIX)) {
            if (path.startsWith("/openapi/")) {
                throw ApiException.pathNotFound();
            }
            return null;
        }
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            throw ApiException.methodNotAllowed();
        }
        if (path.equals("/openapi/v2")) {
            String type = OpenApiAccept.negotiate(request.header("Accept"), true);
            // kube-apiserver labels protobuf application/octet-stream: client-go's media-type parser
            // rejects the '@' of the requested type
            return type.equals(OpenApiAccept.JSON)
                    ? respond(request, v2(), JSON).withHeader("Vary", "Accept")
                    : respond(request, v2Protobuf(), "application/octet-stream").withHeader("Vary", "Accept");
        }
        V3Index v3 = v3Index();
        if (path.equals("/openapi/v3")) {
            return respond(request, v3.index(), JSON);
        }
        String key = path.substring(V3_PREFIX.length());
        Document doc = v3.built().groupVersions().get(key);
        if (doc == null) {
            doc = v3.externals().get(key);
        }
        if (doc == null) {
            throw ApiException.pathNotFound();
        }
        OpenApiAccept.negotiate(request.header("Accept"), false);
        String hash = request.param("hash");
        if (hash != null && !hash.equals(doc.hash())) {
            return RestResponse.bytes(301, null, new byte[0])
                    .withHeader("Location", V3_PREFIX + key + "?hash=" + doc.hash());
        }
        RestResponse response = respond(request, doc, JSON).withHeader("Vary", "Accept");
        if (hash != null) {
            response.withHeader("Cache-Control", "public, immutable").withHeader("Expires",
                    DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusYears(1)));
        }
        return response;
    }

    /**
     * Builds the v3 documents now instead of on first request: with the v2 document ({@link #prepareV2}) about
     * 1–2 s of CPU on a cold JVM, so better run off the start-up path, e.g. in a post-start hook.
     */
    public void prepareV3() {
        built();
    }

    /** Builds the v2 document now, its JSON and protobuf forms (and what the v3 documents share with it). */
    public void prepareV2() {
        v2Protobuf();
    }

    private static RestResponse respond(RestRequest request, Document doc, String contentType) {
        RestResponse response;
        if (doc.matches(request.header("If-None-Match"))) {
            response = RestResponse.bytes(304, null, new byte[0]);
        } else if (OpenApiAccept.acceptsGzip(request.header("Accept-Encoding"))) {
            response = RestResponse.bytes(200, contentType, doc.gzipped()).withHeader("Content-Encoding", "gzip");
        } else {
            response = RestResponse.bytes(200, contentType, doc.data());
        }
        return response.withHeader("ETag", doc.etag()).withHeader("Vary", "Accept-Encoding");
    }

    /** The v3 index of the current build and aggregated documents, made again when either changes. */
    private V3Index v3Index() {
        Built b = built();
        Map<String, String> source = externals.get();
        V3Index i = index;
        if (i != null && i.built() == b && i.source() == source) {
            return i;
        }
        synchronized (this) {
            i = index;
            if (i == null || i.built() != b || i.source() != source) {
                Map<String, Document> docs = new TreeMap<>();
                source.forEach((key, json) -> {
                    if (!b.groupVersions().containsKey(key)) {
                        docs.put(key, Document.ofBytes(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                    }
                });
                Map<String, Document> all = new TreeMap<>(b.groupVersions());
                all.putAll(docs);
                i = new V3Index(b, source, Map.copyOf(docs), indexOf(all));
                index = i;
            }
        }
        return i;
    }

    private static Document indexOf(Map<String, Document> docs) {
        ObjectNode index = Json.object();
        ObjectNode paths = index.putObject("paths");
        docs.forEach((key, doc) ->
                paths.putObject(key).put("serverRelativeURL", V3_PREFIX + key + "?hash=" + doc.hash()));
        return Document.of(index);
    }

    private Built built() {
        Built b = built;
        if (b == null) {
            synchronized (this) {
                b = built;
                if (b == null) {
                    b = DeepStack.call(this::build); // a CRD's schema may nest as deep as a request may
                    built = b;
                }
            }
        }
        return b;
    }

    /** The v2 document: this server's own, with the aggregated servers' merged in when there are any. */
    private Document v2() {
        Document local = localV2();
        Map<String, String> source = externalsV2.get();
        if (source.isEmpty()) {
            return local;
        }
        V2 a = v2Aggregated;
        if (a != null && a.local() == local && a.source() == source) {
            return a.document();
        }
        synchronized (this) {
            a = v2Aggregated;
            if (a == null || a.local() != local || a.source() != source) {
                try {
                    ObjectNode doc = (ObjectNode) Json.MAPPER.readTree(local.data());
                    a = new V2(local, source, DeepStack.call(() -> Document.of(AggregatedSwagger.merge(doc, source))));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                v2Aggregated = a;
            }
        }
        return a.document();
    }

    private Document localV2() {
        Document d = v2;
        if (d == null) {
            synchronized (this) {
                d = v2;
                if (d == null) {
                    long start = System.nanoTime();
                    Built b = built();
                    List<Operation.PathItem> items = new ArrayList<>(b.planner().rootPaths().values());
                    table.groupVersions().forEach(gv -> items.addAll(b.planner().plan(gv)));
                    d = DeepStack.call(() -> Document.of(SwaggerWriter.document(version, items, b.definitions(),
                            b.definitions().closure(roots(items)))));
                    v2 = d;
                    LOG.log(System.Logger.Level.INFO, "OpenAPI v2 built in {0} ms ({1} bytes)",
                            String.valueOf((System.nanoTime() - start) / 1_000_000), String.valueOf(d.length()));
                }
            }
        }
        return d;
    }

    private Document v2Protobuf() {
        Document json = v2();
        V2Protobuf p = v2Protobuf;
        if (p == null || p.json() != json) {
            synchronized (this) {
                p = v2Protobuf;
                if (p == null || p.json() != json) {
                    try {
                        JsonNode tree = Json.MAPPER.readTree(json.data());
                        p = new V2Protobuf(json, DeepStack.call(() -> Document.ofBytes(SwaggerProto.encode(tree))));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    v2Protobuf = p;
                }
            }
        }
        return p.protobuf();
    }

    private Built build() {
        long start = System.nanoTime();
        Definitions definitions = new Definitions(schemas, table.groupVersions());
        PathPlanner planner = new PathPlanner(table, definitions);
        Map<String, JsonNode> v3Schemas = new HashMap<>();
        Map<String, List<Operation.PathItem>> plans = new LinkedHashMap<>();
        planner.rootPaths().forEach((key, item) -> plans.put(key, List.of(item)));
        for (GroupVersion gv : table.groupVersions()) {
            plans.put(gv.group().isEmpty() ? "api/" + gv.version() : "apis/" + gv.group() + "/" + gv.version(),
                    planner.plan(gv));
        }
        Map<String, Document> docs = new TreeMap<>();
        plans.forEach((key, items) -> {
            Set<String> names = definitions.closure(roots(items));
            names.forEach(n -> v3Schemas.computeIfAbsent(n, k -> OpenApiV3Writer.schema(k, definitions.get(k))));
            docs.put(key, Document.of(OpenApiV3Writer.document(items, v3Schemas, names)));
        });
        LOG.log(System.Logger.Level.INFO, "OpenAPI v3 built in {0} ms: {1} documents",
                String.valueOf((System.nanoTime() - start) / 1_000_000), docs.size());
        return new Built(definitions, planner, Map.copyOf(docs));
    }

    private static List<String> roots(List<Operation.PathItem> items) {
        List<String> roots = new ArrayList<>();
        for (Operation.PathItem item : items) {
            for (Operation op : item.operations()) {
                if (op.body() != null) {
                    roots.add(op.body());
                }
                op.responses().values().forEach(r -> {
                    if (r != null) {
                        roots.add(r);
                    }
                });
            }
        }
        return roots;
    }
}
