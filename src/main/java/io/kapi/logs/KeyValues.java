package io.kapi.logs;

import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The key/value pairs of a structured log call, klog's {@code InfoS(msg, k1, v1, k2, v2)}: carried as
 * the record's only parameter, rendered {@code "msg" k1="v1" k2=2} in text and as JSON fields in JSON.
 *
 * @param pairs keys (strings) and values, alternating
 */
public record KeyValues(List<Object> pairs) {

    public KeyValues {
        if (pairs.size() % 2 != 0) {
            throw new IllegalArgumentException("keys and values must alternate: " + pairs.size() + " items");
        }
        pairs = java.util.Collections.unmodifiableList(Arrays.asList(pairs.toArray()));
    }

    /** Logs {@code msg} with {@code keysAndValues} at {@code level}, if the logger shows that level. */
    public static void log(Logger logger, Level level, String msg, Object... keysAndValues) {
        if (!logger.isLoggable(level)) {
            return;
        }
        LogRecord record = new LogRecord(level, msg);
        record.setLoggerName(logger.getName());
        record.setParameters(new Object[] {new KeyValues(Arrays.asList(keysAndValues))});
        logger.log(record);
    }

    /** The pairs of {@code record}, or null for a plain (message format) record. */
    static KeyValues of(LogRecord record) {
        Object[] parameters = record.getParameters();
        return parameters != null && parameters.length == 1 && parameters[0] instanceof KeyValues kv ? kv : null;
    }
}
