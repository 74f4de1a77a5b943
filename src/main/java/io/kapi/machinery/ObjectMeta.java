package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;

/**
 * A typed view of an object's {@code metadata}, reading and writing the underlying tree. Absent
 * strings read as "" (as Go's zero value), absent numbers as 0.
 */
public final class ObjectMeta {

    /** RFC 3339 at second precision in UTC, as {@code metav1.Time} is written. */
    public static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    /** The last second formatted: most writes within a second share it. */
    private record FormattedSecond(long epochSecond, String text) {
    }

    private static volatile FormattedSecond lastFormatted = new FormattedSecond(Long.MIN_VALUE, "");

    private final ObjectNode object;
    private final ObjectNode meta;

    private ObjectMeta(ObjectNode object) {
        this.object = object;
        JsonNode m = object.get("metadata");
        this.meta = m instanceof ObjectNode o ? o : object.putObject("metadata");
    }

    /** The view of {@code object}'s metadata, creating an empty {@code metadata} if absent or not an object. */
    public static ObjectMeta of(ObjectNode object) {
        return new ObjectMeta(object);
    }

    public ObjectNode node() {
        return meta;
    }

    public String name() {
        return text("name");
    }

    public void name(String name) {
        meta.put("name", name);
    }

    public String generateName() {
        return text("generateName");
    }

    public String namespace() {
        return text("namespace");
    }

    public void namespace(String namespace) {
        if (namespace == null || namespace.isEmpty()) {
            meta.remove("namespace");
        } else {
            meta.put("namespace", namespace);
        }
    }

    public String uid() {
        return text("uid");
    }

    public void uid(String uid) {
        meta.put("uid", uid);
    }

    public String resourceVersion() {
        return text("resourceVersion");
    }

    public void resourceVersion(String rv) {
        if (rv == null || rv.isEmpty()) {
            meta.remove("resourceVersion");
        } else {
            meta.put("resourceVersion", rv);
        }
    }

    public long generation() {
        return meta.path("generation").asLong(0);
    }

    public void generation(long generation) {
        if (generation == 0) {
            meta.remove("generation");
        } else {
            meta.put("generation", generation);
        }
    }

    public String creationTimestamp() {
        return text("creationTimestamp");
    }

    public void creationTimestamp(Instant at) {
        meta.put("creationTimestamp", format(at));
    }

    public String deletionTimestamp() {
        return text("deletionTimestamp");
    }

    public boolean hasFinalizers() {
        return meta.path("finalizers").isArray() && !meta.path("finalizers").isEmpty();
    }

    /** Labels as a sorted map (empty when absent). */
    public Map<String, String> labels() {
        Map<String, String> labels = new TreeMap<>();
        meta.path("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }

    /** Copies a system field (uid, timestamps, ...) from {@code other} over this one, or removes it. */
    public void copyFrom(ObjectMeta other, String field) {
        JsonNode value = other.meta.get(field);
        if (value == null || value.isNull()) {
            meta.remove(field);
        } else {
            meta.set(field, value.deepCopy());
        }
    }

    public ObjectNode object() {
        return object;
    }

    public static String format(Instant at) {
        FormattedSecond last = lastFormatted;
        if (last.epochSecond() != at.getEpochSecond()) {
            last = new FormattedSecond(at.getEpochSecond(), TIME.format(at.truncatedTo(ChronoUnit.SECONDS)));
            lastFormatted = last;
        }
        return last.text();
    }

    private String text(String field) {
        JsonNode v = meta.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }
}
