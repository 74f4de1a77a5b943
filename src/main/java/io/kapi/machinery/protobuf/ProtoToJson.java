package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Turns a parsed message into the JSON tree Go's {@code encoding/json} would write for the same Go
 * object, field names as in {@link Fields}, special types as in {@link Special}, map keys sorted.
 *
 * <p>Zero values: client-go writes every non-pointer field, zero or not, and the wire cannot tell a
 * pointer set to zero from a plain zero. Go's JSON drops zero values of {@code omitempty} fields, which
 * is most of them, and a zero there means "unset" anyway. So empty strings are dropped, and zero numbers
 * and {@code false} are dropped unless the field is one of the {@link #KEEP_ZERO} pointers (or required
 * fields) where zero means something, such as {@code replicas} or {@code automountServiceAccountToken}.
 * Empty repeated and map fields are absent; an empty nested message is {@code {}}.
 */
final class ProtoToJson {

    /** Trees made of {@link Json#NODES}. */
    static final ProtoToJson BUILT = new ProtoToJson(Json.NODES, Json.MAPPER.reader(), null);
    private static final ByteString PROTOBUF_PREFIX = ByteString.copyFrom(new byte[] {0x6b, 0x38, 0x73, 0x00});

    /**
     * Scalar fields whose zero value differs from absent, by JSON name, or by {@code Message.name} where
     * the name alone is ambiguous ({@code replicas} is a pointer in a spec, a plain number in a status).
     */
    static final Set<String> KEEP_ZERO = Set.of(
            "DeploymentSpec.replicas", "ReplicaSetSpec.replicas", "StatefulSetSpec.replicas",
            "ReplicationControllerSpec.replicas", "ScaleSpec.replicas",
            // pointers to numbers
            "revisionHistoryLimit", "progressDeadlineSeconds", "terminationGracePeriodSeconds",
            "activeDeadlineSeconds", "deletionGracePeriodSeconds", "gracePeriodSeconds", "runAsUser",
            "runAsGroup", "fsGroup", "backoffLimit", "backoffLimitPerIndex", "maxFailedIndexes", "parallelism",
            "completions", "ttlSecondsAfterFinished", "startingDeadlineSeconds", "successfulJobsHistoryLimit",
            "failedJobsHistoryLimit", "defaultMode", "mode", "priority", "expirationSeconds", "minReplicas",
            "stabilizationWindowSeconds", "minDomains", "partition", "targetCPUUtilizationPercentage",
            "averageUtilization", "collisionCount",
            // optional in the OpenAPI but without omitempty in Go, so always written
            "StatefulSetStatus.availableReplicas",
            // flowcontrol v1's concurrency shares and percents (kube's own bootstrap objects set them to 0)
            "nominalConcurrencyShares", "lendablePercent", "borrowingLimitPercent",
            // pointers in JSON schemas, leases and the like
            "minimum", "maximum", "maxLength", "minLength", "maxItems", "minItems", "maxProperties",
            "minProperties", "multipleOf", "leaseTransitions", "leaseDurationSeconds",
            // pointers to booleans
            "automountServiceAccountToken", "runAsNonRoot", "privileged", "readOnlyRootFilesystem",
            "allowPrivilegeEscalation", "optional", "suspend", "immutable", "enableServiceLinks",
            "shareProcessNamespace", "setHostnameAsFQDN", "hostUsers", "allowVolumeExpansion",
            "attachRequired", "podInfoOnMount", "requiresRepublish", "storageCapacity", "seLinuxMount",
            "ready", "serving", "terminating", "allocateLoadBalancerNodePorts", "manualSelector",
            "controller", "blockOwnerDeletion",
            // required numbers Go always writes
            "port", "containerPort", "weight", "value", "code", "maxSkew", "maxReplicas", "number");

    /** Pointer strings where {@code ""} differs from absent. */
    static final Set<String> KEEP_EMPTY = Set.of("storageClassName", "EndpointPort.name",
            "HostPathVolumeSource.type", "appProtocol");

    private final JsonNodeFactory nodes;
    private final com.fasterxml.jackson.databind.ObjectReader raw;
    private final RequiredFields required;

    /**
     * @param nodes makes the tree's nodes
     * @param raw reads embedded raw JSON ({@code managedFields}, raw extensions) into nodes of the same kind
     * @param required the fields whose zero value Go writes, kept when present; null to keep only the zeros
     *     of {@link #KEEP_ZERO} and {@link #KEEP_EMPTY}
     */
    ProtoToJson(JsonNodeFactory nodes, com.fasterxml.jackson.databind.ObjectReader raw, RequiredFields required) {
        this.nodes = nodes;
        this.raw = raw;
        this.required = required;
    }

    /** The JSON object of {@code message}, which must be an ordinary (not {@link Special}) message. */
    static ObjectNode object(Message message) {
        return BUILT.tree(message);
    }

    /** The JSON object of {@code message} in this converter's nodes. */
    ObjectNode tree(Message message) {
        ObjectNode out = nodes.objectNode();
        writeFields(message, out);
        return out;
    }

    /** Adds the fields of {@code message} to {@code out}. */
    void writeFields(Message message, ObjectNode out) {
        for (Fields.Field f : Fields.of(message.getDescriptorForType()).all()) {
            FieldDescriptor fd = f.descriptor();
            if (f.inline()) {
                if (message.hasField(fd)) {
                    writeFields((Message) message.getField(fd), out);
                }
                continue;
            }
            JsonNode value = field(message, fd, message.getDescriptorForType(), f.jsonName());
            if (value != null) {
                out.set(f.jsonName(), value);
            }
        }
    }

    /** The JSON value of one field, or null to leave it out. */
    private JsonNode field(Message message, FieldDescriptor fd, Descriptor type, String jsonName) {
        if (fd.isMapField()) {
            return message.getRepeatedFieldCount(fd) == 0 ? null : map(message, fd);
        }
        if (fd.isRepeated()) {
            int n = message.getRepeatedFieldCount(fd);
            if (n == 0) {
                return null;
            }
            ArrayNode arr = nodes.arrayNode(n);
            for (int i = 0; i < n; i++) {
                arr.add(value(fd, message.getRepeatedField(fd, i)));
            }
            return arr;
        }
        if (!message.hasField(fd)) {
            return null;
        }
        Object v = message.getField(fd);
        if (isZero(v) && !keepZero(v, type.getName(), jsonName)
                && (required == null || !required.contains(type, jsonName))) {
            return null;
        }
        return value(fd, v);
    }

    static boolean keepZero(Object v, String messageName, String jsonName) {
        if (v instanceof String) {
            return KEEP_EMPTY.contains(jsonName) || KEEP_EMPTY.contains(messageName + "." + jsonName);
        }
        return KEEP_ZERO.contains(jsonName) || KEEP_ZERO.contains(messageName + "." + jsonName);
    }

    static boolean isZero(Object v) {
        return switch (v) {
            case String s -> s.isEmpty();
            case Boolean b -> !b;
            case Integer i -> i == 0;
            case Long l -> l == 0;
            case Double d -> d == 0;
            case Float f -> f == 0;
            default -> false;
        };
    }

    private ObjectNode map(Message message, FieldDescriptor fd) {
        Descriptor entry = fd.getMessageType();
        FieldDescriptor keyField = entry.findFieldByNumber(1);
        FieldDescriptor valueField = entry.findFieldByNumber(2);
        List<Message> entries = new ArrayList<>(message.getRepeatedFieldCount(fd));
        for (int i = 0; i < message.getRepeatedFieldCount(fd); i++) {
            entries.add((Message) message.getRepeatedField(fd, i));
        }
        entries.sort(Comparator.comparing(e -> String.valueOf(e.getField(keyField))));
        ObjectNode out = nodes.objectNode();
        for (Message e : entries) {
            out.set(String.valueOf(e.getField(keyField)), value(valueField, e.getField(valueField)));
        }
        return out;
    }

    private JsonNode value(FieldDescriptor fd, Object v) {
        return switch (fd.getJavaType()) {
            case STRING -> nodes.textNode((String) v);
            case INT -> nodes.numberNode((Integer) v);
            case LONG -> integral((Long) v);
            case BOOLEAN -> nodes.booleanNode((Boolean) v);
            case DOUBLE -> number((Double) v);
            case FLOAT -> number((Float) v);
            case BYTE_STRING -> nodes.textNode(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray()));
            case ENUM -> nodes.textNode(v.toString());
            case MESSAGE -> message((Message) v);
        };
    }

    /** Go writes integral floats without a fraction: {@code 1}, not {@code 1.0}. */
    JsonNode number(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return integral((long) d);
        }
        return nodes.numberNode(d);
    }

    /**
     * An integer as Jackson reads the same digits from JSON: an int node when it fits, else a long node, so that a
     * tree decoded from protobuf equals the one decoded from JSON (a pod update compares its old and new spec so:
     * an int64 field such as terminationGracePeriodSeconds read as a long node made an unchanged pod differ).
     */
    JsonNode integral(long v) {
        return v == (int) v ? nodes.numberNode((int) v) : nodes.numberNode(v);
    }

    /** The JSON value of a nested message, special or ordinary. */
    JsonNode message(Message m) {
        Special special = Special.of(m.getDescriptorForType());
        if (special == null) {
            return tree(m);
        }
        Descriptor d = m.getDescriptorForType();
        return switch (special) {
            case TIME -> m.hasField(d.findFieldByName("seconds"))
                    ? nodes.textNode(GoTime.formatTime((Long) m.getField(d.findFieldByName("seconds"))))
                    : nodes.nullNode();
            case MICRO_TIME -> m.hasField(d.findFieldByName("seconds"))
                    ? nodes.textNode(GoTime.formatMicroTime((Long) m.getField(d.findFieldByName("seconds")),
                            (Integer) m.getField(d.findFieldByName("nanos"))))
                    : nodes.nullNode();
            case DURATION -> nodes.textNode(GoTime.formatDuration((Long) m.getField(d.findFieldByName("duration"))));
            case RAW_JSON -> rawJson((ByteString) m.getField(d.getFields().getFirst()));
            case STRING_LIST -> strings(m, d.getFields().getFirst());
            case INT_OR_STRING -> ((Long) m.getField(d.findFieldByName("type"))) == 1
                    ? nodes.textNode((String) m.getField(d.findFieldByName("strVal")))
                    : nodes.numberNode((Integer) m.getField(d.findFieldByName("intVal")));
            case QUANTITY -> nodes.textNode((String) m.getField(d.findFieldByName("string")));
            case PROPS_OR_ARRAY -> {
                FieldDescriptor many = d.findFieldByName("jSONSchemas");
                if (m.getRepeatedFieldCount(many) > 0) {
                    ArrayNode arr = nodes.arrayNode();
                    ((List<?>) m.getField(many)).forEach(s -> arr.add(tree((Message) s)));
                    yield arr;
                }
                yield schemaOr(m, nodes.nullNode());
            }
            case PROPS_OR_BOOL -> schemaOr(m, nodes.booleanNode((Boolean) m.getField(d.findFieldByName("allows"))));
            case PROPS_OR_STRING_ARRAY -> {
                FieldDescriptor property = d.findFieldByName("property");
                yield m.getRepeatedFieldCount(property) > 0 ? strings(m, property) : schemaOr(m, nodes.nullNode());
            }
        };
    }

    private JsonNode schemaOr(Message m, JsonNode otherwise) {
        FieldDescriptor schema = m.getDescriptorForType().findFieldByName("schema");
        return m.hasField(schema) ? tree((Message) m.getField(schema)) : otherwise;
    }

    private ArrayNode strings(Message m, FieldDescriptor fd) {
        ArrayNode arr = nodes.arrayNode();
        ((List<?>) m.getField(fd)).forEach(s -> arr.add((String) s));
        return arr;
    }

    /**
     * Embedded raw bytes as JSON. A {@code RawExtension} holding an object that a protobuf client encoded
     * (prefix {@code k8s\0}) is decoded as an object of its own.
     */
    JsonNode rawJson(ByteString raw) {
        if (raw.isEmpty()) {
            return nodes.nullNode();
        }
        if (raw.startsWith(PROTOBUF_PREFIX)) {
            try {
                return ProtobufCodec.decode(raw.toByteArray(), new GroupVersionKind("", "", ""));
            } catch (ApiException e) {
                throw new IllegalArgumentException("embedded object: " + e.getMessage(), e);
            }
        }
        try {
            return this.raw.readTree(raw.toByteArray());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("embedded JSON: " + e.getOriginalMessage(), e);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("embedded JSON", e);
        }
    }
}
