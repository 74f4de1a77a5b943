package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.Rfc3339;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes {@code metadata.managedFields} as kube's field manager does: one entry per
 * manager identifier (a later duplicate wins), {@code fieldsType: FieldsV1} required, entries written
 * sorted by operation (Apply first), then time, manager, apiVersion and subresource.
 */
final class ManagedFields {

    static final String FIELDS_V1 = "FieldsV1";

    /** One manager's fields. {@code time} is the RFC 3339 text, or null. */
    record Entry(FieldSet set, String apiVersion, String time) {
    }

    private ManagedFields() {
    }

    /**
     * Decodes an object's managedFields (absent or null reads as none).
     *
     * @throws IllegalArgumentException with kube's wording when an entry is invalid
     */
    static LinkedHashMap<ManagerKey, Entry> decode(JsonNode managedFields) {
        LinkedHashMap<ManagerKey, Entry> out = new LinkedHashMap<>();
        if (managedFields == null || managedFields.isNull()) {
            return out;
        }
        if (!managedFields.isArray()) {
            throw new IllegalArgumentException("managedFields must be a list");
        }
        int i = 0;
        for (JsonNode e : managedFields) {
            ManagerKey.Operation op = ManagerKey.Operation.fromWire(e.path("operation").asText(""));
            if (op == null) {
                throw new IllegalArgumentException("operation must be `Apply` or `Update`");
            }
            String apiVersion = e.path("apiVersion").asText("");
            if (apiVersion.isEmpty()) {
                throw new IllegalArgumentException("apiVersion must not be empty");
            }
            String fieldsType = e.path("fieldsType").asText("");
            if (fieldsType.isEmpty()) {
                throw new IllegalArgumentException("missing fieldsType in managed fields entry " + i);
            }
            if (!fieldsType.equals(FIELDS_V1)) {
                throw new IllegalArgumentException("invalid fieldsType \"%s\" in managed fields entry %d"
                        .formatted(fieldsType, i));
            }
            JsonNode fields = e.get("fieldsV1");
            FieldSet set = fields == null || fields.isNull() ? FieldSet.EMPTY : FieldSet.fromFieldsV1(fields);
            ManagerKey key = new ManagerKey(e.path("manager").asText(""), op, apiVersion,
                    e.path("subresource").asText(""));
            JsonNode time = e.get("time");
            out.put(key, new Entry(set, apiVersion, time == null || time.isNull() ? null : time.asText()));
            i++;
        }
        return out;
    }

    /** Encodes managers as a managedFields list, or null when there are none. */
    static ArrayNode encode(Map<ManagerKey, Entry> managers) {
        if (managers.isEmpty()) {
            return null;
        }
        List<Map.Entry<ManagerKey, Entry>> entries = new ArrayList<>(managers.entrySet());
        entries.sort(Comparator.<Map.Entry<ManagerKey, Entry>, String>comparing(e -> e.getKey().operation().wire())
                .thenComparingLong(e -> epochSeconds(e.getValue().time()))
                .thenComparing(e -> e.getKey().manager())
                .thenComparing(e -> e.getValue().apiVersion())
                .thenComparing(e -> e.getKey().subresource()));
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (Map.Entry<ManagerKey, Entry> e : entries) {
            ObjectNode o = out.addObject();
            if (!e.getKey().manager().isEmpty()) {
                o.put("manager", e.getKey().manager());
            }
            o.put("operation", e.getKey().operation().wire());
            o.put("apiVersion", e.getValue().apiVersion());
            if (e.getValue().time() != null) {
                o.put("time", e.getValue().time());
            }
            o.put("fieldsType", FIELDS_V1);
            o.set("fieldsV1", e.getValue().set().toFieldsV1());
            if (!e.getKey().subresource().isEmpty()) {
                o.put("subresource", e.getKey().subresource());
            }
        }
        return out;
    }

    /**
     * The seconds since the epoch of an entry's {@code time} (RFC 3339), 0 for none or one that does not
     * parse. The forms kube writes are read by hand ({@link Rfc3339}): entries are sorted by it on every
     * write, and the JDK's parser is slow to start; any other through java.time.
     */
    static long epochSeconds(String time) {
        if (time == null) {
            return 0;
        }
        Instant instant = Rfc3339.parse(time);
        if (instant != null) {
            return instant.getEpochSecond();
        }
        try {
            return OffsetDateTime.parse(time).toEpochSecond();
        } catch (DateTimeParseException e) {
            return 0;
        }
    }

    /**
     * Whether a request's managedFields asks for a reset: an empty list, or one empty entry.
     */
    static boolean isReset(JsonNode managedFields) {
        if (managedFields == null || !managedFields.isArray()) {
            return false;
        }
        return managedFields.isEmpty() || managedFields.size() == 1 && managedFields.get(0).isObject()
                && managedFields.get(0).isEmpty();
    }
}
