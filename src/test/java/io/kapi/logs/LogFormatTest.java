package io.kapi.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

final class LogFormatTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = Logger.getLogger("io.kapi.server.filter.RequestLog");

    @AfterEach
    void resetVerbosity() {
        Verbosity.configure(0, List.of());
    }

    /** Formats what {@code body} logs through {@code LOG}, as the server's handler would, one string a line. */
    private static List<String> capture(LogFormat format, Runnable body) {
        List<String> lines = new java.util.ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (isLoggable(record)) {
                    lines.add(getFormatter().format(record));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        handler.setFormatter(format.formatter());
        handler.setFilter(Verbosity.filter());
        LOG.addHandler(handler);
        LOG.setUseParentHandlers(false);
        try {
            body.run();
        } finally {
            LOG.removeHandler(handler);
            LOG.setUseParentHandlers(true);
        }
        return lines;
    }

    @Test
    @DisplayName("a structured JSON line has ts (float seconds), caller, msg, v and the key/value pairs")
    void jsonStructured() throws Exception {
        Verbosity.configure(3, List.of());
        List<String> lines = capture(LogFormat.JSON, () -> KeyValues.log(LOG, KlogLevel.V3, "HTTP",
                "verb", "GET", "URI", "/api", "resp", 200));
        assertEquals(1, lines.size());
        JsonNode line = JSON.readTree(lines.getFirst());
        assertTrue(line.get("ts").isDouble(), lines.getFirst());
        assertTrue(Math.abs(line.get("ts").asDouble() - System.currentTimeMillis() / 1000.0) < 60);
        assertTrue(line.get("caller").asText().matches("logs/LogFormatTest\\.java:\\d+"), line.toString());
        assertEquals("HTTP", line.get("msg").asText());
        assertEquals(3, line.get("v").asInt());
        assertEquals("GET", line.get("verb").asText());
        assertEquals(200, line.get("resp").asInt());
        assertEquals(List.of("ts", "caller", "msg", "v", "verb", "URI", "resp"), fieldNames(line));
    }

    @Test
    @DisplayName("an error is logged in JSON without v and with err, as kube's ErrorS")
    void jsonError() throws Exception {
        List<String> lines = capture(LogFormat.JSON, () -> LOG.log(Level.SEVERE, "cannot {0}", new Object[] {"write"}));
        JsonNode plain = JSON.readTree(lines.getFirst());
        assertEquals("cannot write", plain.get("msg").asText());
        assertFalse(plain.has("v"));
        lines = capture(LogFormat.JSON, () -> LOG.log(Level.SEVERE, "failed", new IllegalStateException("boom")));
        assertEquals("java.lang.IllegalStateException: boom", JSON.readTree(lines.getFirst()).get("err").asText());
    }

    @Test
    @DisplayName("a structured text line reads as klog's: severity, date, caller, quoted message, key=value")
    void text() {
        Verbosity.configure(3, List.of());
        List<String> lines = capture(LogFormat.TEXT, () -> KeyValues.log(LOG, KlogLevel.V3, "HTTP",
                "verb", "GET", "URI", "/api", "resp", 200));
        assertTrue(lines.getFirst().matches(
                "I\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6} logs/LogFormatTest\\.java:\\d+] \"HTTP\" verb=\"GET\" URI=\"/api\" resp=200\n"),
                lines.getFirst());
    }

    @Test
    @DisplayName("-v hides what is above it; --vmodule raises one class; setting -v at run time applies at once")
    void verbosity() {
        Verbosity.configure(0, List.of());
        assertEquals(List.of(), capture(LogFormat.TEXT, () -> KeyValues.log(LOG, KlogLevel.V3, "HTTP")));
        Verbosity.configure(0, VModule.parse("Request*=3"));
        assertEquals(1, capture(LogFormat.TEXT, () -> KeyValues.log(LOG, KlogLevel.V3, "HTTP")).size());
        Logger other = Logger.getLogger("io.kapi.server.Other");
        assertFalse(Verbosity.filter().isLoggable(record(other, KlogLevel.V3)));
        Verbosity.set(4);
        assertTrue(Verbosity.filter().isLoggable(record(other, Level.FINER)));
        assertThrows(IllegalArgumentException.class, () -> VModule.parse("Request"));
        assertThrows(IllegalArgumentException.class, () -> VModule.parse("Request=x"));
        assertEquals(List.of("vmodule: Forbidden: Only supported for text log format"),
                LogFormat.JSON.validate(VModule.parse("a=1")));
        assertThrows(IllegalArgumentException.class, () -> LogFormat.parse("xml"));
    }

    @Test
    @DisplayName("bearer and basic credentials, JWTs and private keys are masked in any message")
    void redaction() {
        String jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
        for (LogFormat format : LogFormat.values()) {
            String out = String.join("", capture(format, () -> {
                LOG.log(Level.WARNING, "header Authorization: Bearer abc.def-123 seen");
                LOG.log(Level.WARNING, "basic: Authorization: Basic dXNlcjpwYXNz");
                LOG.log(Level.WARNING, "token {0}", jwt);
                LOG.log(Level.WARNING, "key -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----");
                KeyValues.log(LOG, Level.WARNING, "kv", "token", "Bearer zzz999");
            }));
            assertFalse(out.contains("abc.def-123") || out.contains("dXNlcjpwYXNz") || out.contains(jwt)
                    || out.contains("MHcCAQEE") || out.contains("zzz999"), out);
            assertTrue(out.contains("Bearer <masked>"), out);
        }
    }

    private static LogRecord record(Logger logger, Level level) {
        LogRecord r = new LogRecord(level, "x");
        r.setLoggerName(logger.getName());
        return r;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
