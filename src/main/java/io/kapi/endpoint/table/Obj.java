package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The reads printers make beyond {@link GoValues}' Go zero values: the name, timestamps (a missing or
 * unreadable one is Go's zero time, null) and ages as the AGE column prints them.
 */
final class Obj {

    private Obj() {
    }

    static String name(JsonNode obj) {
        return GoValues.text(obj, "metadata", "name");
    }

    /** The RFC 3339 time at {@code path}, or null when it is absent, empty or unreadable (Go's zero time). */
    static Instant time(JsonNode node, String... path) {
        String s = GoValues.text(node, path);
        if (s.isEmpty()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The age of the timestamp at {@code path} as the AGE column prints it. */
    static String age(JsonNode node, Instant now, String... path) {
        return HumanDuration.since(time(node, path), now);
    }

    /** The age of the object: its {@code metadata.creationTimestamp}. */
    static String age(JsonNode obj, Instant now) {
        return age(obj, now, "metadata", "creationTimestamp");
    }

    static boolean deleting(JsonNode obj) {
        return GoValues.has(obj, "metadata", "deletionTimestamp");
    }
}
