package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.ListEncoders;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.Negotiation;
import io.kapi.endpoint.codec.ResponseEncoder;
import io.kapi.endpoint.codec.ResponseTarget;
import io.kapi.endpoint.table.ListMeta;
import io.kapi.endpoint.table.MetaVersion;
import io.kapi.endpoint.table.PartialObjectMetadata;
import io.kapi.endpoint.table.TableConvertor;
import io.kapi.endpoint.table.TableOptions;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.ListResult;
import io.kapi.registry.SharedObject;
import io.kapi.storage.cache.SharedFrames;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes responses in what the Accept header negotiates: the object itself as JSON, YAML or (for a built-in
 * kind) protobuf, or its {@code meta.k8s.io} Table (JSON or YAML) or PartialObjectMetadata(List) (any of
 * the three) conversion. Lists in compact JSON or protobuf are streamed item by item.
 */
public final class NegotiatedWriter implements ResponseWriter {

    /** What a built-in list's items leave out, as kube-apiserver encodes them. */
    private static final Set<String> TYPE_FIELDS = Set.of("apiVersion", "kind");
    /**
     * The key of a whole response's bytes (a GET's) in an object's shared encodings, by format: made once, so
     * that a GET's lookup hashes no new string and finds its key by identity.
     */
    private static final Map<Format, String> RESPONSE = responseKeys();

    private final TableConvertor tables;
    private final Clock clock;
    private final ListEncoders encoders;

    /** @param encoders where large JSON lists are written (see {@link ListEncoders}) */
    public NegotiatedWriter(TableConvertor tables, Clock clock, ListEncoders encoders) {
        this.tables = tables;
        this.clock = clock;
        this.encoders = encoders;
    }

    @Override
    public Negotiated negotiate(RestRequest request, ApiResource resource) {
        ResponseTarget target = Negotiation.forResource(request.header("Accept"), protobuf(resource));
        if (target.isAs("Table")) {
            TableOptions options = tableOptions(request, target);
            return (status, object) -> encode(status, tables.single(resource, object, options, clock.instant()), target);
        }
        if (target.isAs(PartialObjectMetadata.KIND)) {
            MetaVersion version = MetaVersion.parse(target.as().version());
            return (status, object) -> encode(status, PartialObjectMetadata.of(object, version), target);
        }
        if (target.converts()) {
            throw notAcceptable(target);
        }
        return (status, object) -> encode(status, object, target);
    }

    /**
     * The object as compact JSON or protobuf from the cache's encodings when it is the cache's: made by the
     * first GET that needs that form, copied by the next (the object is the same until its next write, which
     * makes a new cached object). Any other form converts a copy.
     */
    @Override
    public RestResponse shared(RestRequest request, ApiResource resource, int status, SharedObject read) {
        ResponseTarget target = Negotiation.forResource(request.header("Accept"), protobuf(resource));
        if (read.encodings() == null || target.converts() || target.pretty() || target.format() == Format.YAML) {
            return ResponseWriter.super.shared(request, resource, status, read);
        }
        ObjectNode object = read.object();
        GroupVersionKind gvk = target.format() == Format.PROTOBUF ? ResponseEncoder.kindOf(object) : null;
        byte[] body = gvk != null && ProtobufCodec.supports(gvk)
                ? read.encodings().protobuf(object, gvk) // its message shared with LISTs and watch events
                : read.encodings().get(RESPONSE.get(target.format()), () -> ResponseEncoder.encode(object, target));
        return RestResponse.bytes(status, ResponseEncoder.contentType(object, target), body);
    }

    private static Map<Format, String> responseKeys() {
        Map<Format, String> keys = new EnumMap<>(Format.class);
        for (Format format : Format.values()) {
            keys.put(format, "response:" + format);
        }
        return keys;
    }

    @Override
    public RestResponse list(RestRequest request, ApiResource resource, ListResult page, boolean typedItems) {
        ResponseTarget target = Negotiation.forResource(request.header("Accept"), protobuf(resource));
        ListMeta meta = new ListMeta(page.resourceVersion(), page.continueToken(), page.remainingItemCount());
        JsonNode body;
        if (target.isAs("Table")) {
            body = tables.list(resource, page.items(), meta, tableOptions(request, target), clock.instant());
        } else if (target.isAs(PartialObjectMetadata.LIST_KIND)) {
            body = PartialObjectMetadata.list(page.items(), meta, MetaVersion.parse(target.as().version()));
        } else if (target.converts()) {
            throw notAcceptable(target);
        } else if (target.format() == Format.PROTOBUF || target.format() == Format.JSON && !target.pretty()) {
            return streamed(resource, page, target, typedItems);
        } else {
            body = Lists.of(resource, page, typedItems);
        }
        return encode(200, body, target);
    }

    /**
     * A JSON or protobuf list written item by item as the client takes it: a LIST of 10,000 objects pins the
     * items it already had, not a second tree and two copies of its encoding. A large one is written by an
     * encoder.
     */
    private RestResponse streamed(ApiResource resource, ListResult page, ResponseTarget target, boolean typedItems) {
        ObjectNode envelope = Lists.of(resource,
                new ListResult(List.of(), page.resourceVersion(), page.continueToken(), page.remainingItemCount()),
                typedItems);
        Set<String> omit = typedItems ? Set.of() : TYPE_FIELDS;
        List<ObjectNode> items = page.items();
        ProtobufCodec.ItemEncodings kept = encodings(page);
        return new RestResponse(200, new ArrayList<>(), new RestResponse.Encoded(ResponseEncoder.contentType(target),
                out -> encoders.encode(items.size(),
                        () -> ResponseEncoder.writeList(envelope, items, omit, target, out, kept))));
    }

    /**
     * Where the page's items keep their protobuf messages: the watch cache's objects keep them for as long
     * as they live (a second LIST copies bytes), other items nowhere.
     */
    private static ProtobufCodec.ItemEncodings encodings(ListResult page) {
        List<SharedFrames> shared = page.encodings();
        if (shared == null) {
            return ProtobufCodec.ItemEncodings.NONE;
        }
        return (index, kind, encoder) -> shared.get(index).message(kind, encoder);
    }

    @Override
    public Negotiated negotiatePlain(RestRequest request) {
        ResponseTarget target = Negotiation.negotiate(request.header("Accept"), Set.of(), true);
        return (status, body) -> encode(status, body, target);
    }

    private static TableOptions tableOptions(RestRequest request, ResponseTarget target) {
        return TableOptions.of(target.as().version(), request.param("includeObject"));
    }

    private static RestResponse encode(int status, JsonNode body, ResponseTarget target) {
        return RestResponse.bytes(status, ResponseEncoder.contentType(body, target), ResponseEncoder.encode(body, target));
    }

    /** Whether the resource's kind has a protobuf form: built-in kinds do, custom resources do not. */
    static boolean protobuf(ApiResource resource) {
        return ProtobufCodec.supports(resource.gvk());
    }

    private static ApiException notAcceptable(ResponseTarget target) {
        return ApiException.notAcceptable(Negotiation.ACCEPTED);
    }
}
