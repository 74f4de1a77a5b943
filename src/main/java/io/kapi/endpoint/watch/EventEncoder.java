package io.kapi.endpoint.watch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.ResponseEncoder;
import io.kapi.endpoint.codec.ResponseTarget;
import io.kapi.endpoint.table.MetaVersion;
import io.kapi.endpoint.table.PartialObjectMetadata;
import io.kapi.endpoint.table.TableConvertor;
import io.kapi.endpoint.table.TableOptions;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.cache.SharedFrames;
import java.io.UncheckedIOException;
import java.time.Clock;

/**
 * Encodes the events of one watch in the negotiated form: the object itself (encoded once per event and
 * format and shared by every watcher), its PartialObjectMetadata, or a Table row (column definitions with
 * the first event only, as kube-apiserver). A JSON frame is a {@code WatchEvent} and a newline; a protobuf
 * frame is kube's: a 4-byte big-endian length, then a {@code WatchEvent} message whose object is the
 * {@code k8s\0} envelope of the object (see {@link ProtobufCodec#watchFrame}); one encoding of the
 * object serves the frames of every event type. Not thread-safe: one per watch.
 */
final class EventEncoder {

    static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";
    /** The shared frames' key of the protobuf encoding of an event's object (and, with the type, of its frame). */
    private static final String PROTOBUF = "protobuf:";
    private static final String PROTOBUF_CURRENT = PROTOBUF + "current";
    private static final String PROTOBUF_PREVIOUS = PROTOBUF + "previous";

    private final ApiResource resource;
    private final ResponseTarget target;
    private final TableConvertor tables;
    private final Clock clock;
    private TableOptions tableOptions;

    EventEncoder(ApiResource resource, ResponseTarget target, TableConvertor tables, TableOptions tableOptions,
                 Clock clock) {
        this.resource = resource;
        this.target = target;
        this.tables = tables;
        this.tableOptions = tableOptions;
        this.clock = clock;
    }

    /** The frame of an object event; {@code shared} (may be null) holds the encodings other watchers made. */
    byte[] object(String type, ObjectNode object, SharedFrames shared) {
        if (!target.converts() && shared != null) {
            if (target.format() == Format.PROTOBUF) {
                // ADDED and MODIFIED carry the event's new object, DELETED its previous one
                boolean deleted = type.equals("DELETED");
                byte[] encoded = shared.get(deleted ? PROTOBUF_PREVIOUS : PROTOBUF_CURRENT, () -> deleted
                        ? shared.deletedProtobuf(object, kindOf(object)) : shared.protobuf(object, kindOf(object)));
                return shared.get(protobufFrame(type), () -> ProtobufCodec.watchFrame(type, encoded));
            }
            return shared.get(type, () -> frame(type, object));
        }
        return frame(type, convert(object));
    }

    /**
     * The shared frames' key of a protobuf frame of {@code type}: constants, so that each watcher of each
     * event does not make (and hash) the key again, as JSON's, the type itself, is not.
     */
    private static String protobufFrame(String type) {
        return switch (type) {
            case "ADDED" -> "protobuf:ADDED";
            case "MODIFIED" -> "protobuf:MODIFIED";
            case "DELETED" -> "protobuf:DELETED";
            default -> PROTOBUF + type;
        };
    }

    /** A BOOKMARK: an empty object of the kind that only carries the resourceVersion. */
    byte[] bookmark(long revision, boolean initialEventsEnd) {
        ObjectNode object = Json.object();
        ObjectNode meta;
        if (target.isAs("Table")) {
            object.put("kind", "Table");
            object.put("apiVersion", MetaVersion.parse(target.as().version()).apiVersion());
            meta = object.putObject("metadata");
            object.putNull("columnDefinitions");
            object.putNull("rows");
        } else if (target.isAs(PartialObjectMetadata.KIND)) {
            object.put("kind", PartialObjectMetadata.KIND);
            object.put("apiVersion", MetaVersion.parse(target.as().version()).apiVersion());
            meta = object.putObject("metadata");
        } else {
            object.put("kind", resource.kind());
            object.put("apiVersion", resource.gvk().apiVersion());
            meta = object.putObject("metadata");
        }
        meta.put("resourceVersion", Long.toString(revision));
        meta.putNull("creationTimestamp");
        if (initialEventsEnd) {
            meta.putObject("annotations").put(INITIAL_EVENTS_END, "true");
        }
        return frame("BOOKMARK", object);
    }

    /** An ERROR event carrying a Status. */
    byte[] error(ObjectNode status) {
        return frame("ERROR", status);
    }

    /** The kind the object names, or the resource's where it names none. */
    private GroupVersionKind kindOf(JsonNode object) {
        GroupVersionKind gvk = ResponseEncoder.kindOf(object);
        return gvk.kind().isEmpty() ? resource.gvk() : gvk;
    }

    private JsonNode convert(ObjectNode object) {
        if (target.isAs("Table")) {
            JsonNode table = tables.single(resource, object, tableOptions, clock.instant());
            tableOptions = tableOptions.withoutHeaders();
            return table;
        }
        if (target.isAs(PartialObjectMetadata.KIND)) {
            return PartialObjectMetadata.of(object, MetaVersion.parse(target.as().version()));
        }
        return object;
    }

    private byte[] frame(String type, JsonNode object) {
        if (target.format() == Format.PROTOBUF) {
            return ProtobufCodec.encodeWatchEvent(type, object, kindOf(object));
        }
        ObjectNode event = Json.object();
        event.put("type", type);
        event.set("object", object);
        try {
            byte[] json = Json.MAPPER.writeValueAsBytes(event);
            byte[] out = new byte[json.length + 1];
            System.arraycopy(json, 0, out, 0, json.length);
            out[json.length] = '\n';
            return out;
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
