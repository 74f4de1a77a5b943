package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.kapi.machinery.Json;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/**
 * Builds the message of a JSON tree: the inverse of {@link ProtoToJson}. JSON keys the message does
 * not know and {@code null} values are left out, as Go's JSON decoder would leave them zero.
 *
 * @throws IllegalArgumentException (from {@link #message}) when a value cannot be converted, such as a
 *         time that is not RFC 3339
 */
final class JsonToProto {

    private JsonToProto() {
    }

    /** The message of type {@code type} that {@code json} describes. */
    static Message message(JsonNode json, Descriptor type) {
        Special special = Special.of(type);
        return special == null ? object(json, type) : special(json, type, special);
    }

    private static Message object(JsonNode json, Descriptor type) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
        if (!json.isObject()) {
            throw new IllegalArgumentException("expected an object for " + type.getName() + ", got " + json.getNodeType());
        }
        for (Fields.Field f : Fields.of(type).all()) {
            FieldDescriptor fd = f.descriptor();
            if (f.inline()) {
                Message inner = object(json, fd.getMessageType());
                if (!inner.getAllFields().isEmpty()) {
                    b.setField(fd, inner);
                }
                continue;
            }
            JsonNode v = json.get(f.jsonName());
            if (v == null) {
                continue;
            }
            if (v.isNull()) {
                if (isTime(fd)) {
                    // Go writes a zero metav1.Time as an empty message; it reads back as null
                    b.setField(fd, DynamicMessage.getDefaultInstance(fd.getMessageType()));
                }
                continue;
            }
            if (fd.isMapField()) {
                map(b, fd, v);
            } else if (fd.isRepeated()) {
                if (v.isArray()) {
                    for (JsonNode e : v) {
                        b.addRepeatedField(fd, scalar(fd, e));
                    }
                }
            } else {
                b.setField(fd, scalar(fd, v));
            }
        }
        return b.build();
    }

    private static boolean isTime(FieldDescriptor fd) {
        return !fd.isRepeated() && fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                && Special.of(fd.getMessageType()) == Special.TIME;
    }

    private static void map(DynamicMessage.Builder b, FieldDescriptor fd, JsonNode v) {
        Descriptor entry = fd.getMessageType();
        FieldDescriptor key = entry.findFieldByNumber(1);
        FieldDescriptor value = entry.findFieldByNumber(2);
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            if (e.getValue().isNull() && value.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            b.addRepeatedField(fd, DynamicMessage.newBuilder(entry)
                    .setField(key, e.getKey())
                    .setField(value, scalar(value, e.getValue()))
                    .build());
        }
    }

    private static Object scalar(FieldDescriptor fd, JsonNode v) {
        return switch (fd.getJavaType()) {
            case STRING -> v.isTextual() ? v.textValue() : v.toString();
            case INT -> v.asInt();
            case LONG -> v.asLong();
            case BOOLEAN -> v.asBoolean();
            case DOUBLE -> v.asDouble();
            case FLOAT -> (float) v.asDouble();
            case BYTE_STRING -> v.isNull() ? ByteString.EMPTY : ByteString.copyFrom(base64(v.asText()));
            case ENUM -> fd.getEnumType().findValueByName(v.asText());
            case MESSAGE -> message(v, fd.getMessageType());
        };
    }

    private static byte[] base64(String s) {
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("illegal base64 data: " + s.length() + " characters", e);
        }
    }

    private static Message special(JsonNode json, Descriptor type, Special special) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
        switch (special) {
            case TIME, MICRO_TIME -> {
                if (json.isTextual() && !json.textValue().isEmpty()) {
                    Instant t = GoTime.parseTime(json.textValue());
                    b.setField(type.findFieldByName("seconds"), t.getEpochSecond());
                    b.setField(type.findFieldByName("nanos"), special == Special.TIME ? 0 : t.getNano() / 1000 * 1000);
                }
            }
            case DURATION -> b.setField(type.findFieldByName("duration"), GoTime.parseDuration(json.asText()));
            case RAW_JSON -> b.setField(type.getFields().getFirst(), ByteString.copyFrom(jsonBytes(json)));
            case STRING_LIST -> json.forEach(s -> b.addRepeatedField(type.getFields().getFirst(), s.asText()));
            case INT_OR_STRING -> {
                if (json.isNumber()) {
                    b.setField(type.findFieldByName("type"), 0L);
                    b.setField(type.findFieldByName("intVal"), json.asInt());
                } else {
                    b.setField(type.findFieldByName("type"), 1L);
                    b.setField(type.findFieldByName("strVal"), json.asText());
                }
            }
            case QUANTITY -> b.setField(type.findFieldByName("string"), json.isTextual() ? json.textValue() : json.toString());
            case PROPS_OR_ARRAY -> {
                if (json.isArray()) {
                    FieldDescriptor many = type.findFieldByName("jSONSchemas");
                    json.forEach(s -> b.addRepeatedField(many, message(s, many.getMessageType())));
                } else {
                    setSchema(b, type, json);
                }
            }
            case PROPS_OR_BOOL -> {
                b.setField(type.findFieldByName("allows"), !json.isBoolean() || json.booleanValue());
                if (json.isObject()) {
                    setSchema(b, type, json);
                }
            }
            case PROPS_OR_STRING_ARRAY -> {
                if (json.isArray()) {
                    json.forEach(s -> b.addRepeatedField(type.findFieldByName("property"), s.asText()));
                } else {
                    setSchema(b, type, json);
                }
            }
        }
        return b.build();
    }

    private static void setSchema(DynamicMessage.Builder b, Descriptor type, JsonNode json) {
        FieldDescriptor schema = type.findFieldByName("schema");
        b.setField(schema, message(json, schema.getMessageType()));
    }

    private static byte[] jsonBytes(JsonNode json) {
        try {
            return Json.MAPPER.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
