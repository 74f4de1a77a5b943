package io.kapi.logs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * kube's JSON lines ({@code --logging-format=json}), one object per record:
 * {@code {"ts":1733433995.123456,"caller":"filter/RequestLog.java:42","msg":"HTTP","v":3,"verb":"GET",...}}.
 * {@code ts} is seconds since the epoch as a float; an error record (SEVERE) has no {@code v}, as
 * kube's {@code ErrorS}; a thrown exception is {@code err}.
 */
final class JsonFormatter extends Formatter {

    /** Its buffers from the server's pool: a record is formatted on the (virtual) thread that logs it. */
    private static final JsonFactory FACTORY = JsonFactory.builder().recyclerPool(Json.BUFFERS).build();

    @Override
    public String format(LogRecord record) {
        StringWriter out = new StringWriter(200);
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.writeStartObject();
            Instant t = record.getInstant();
            json.writeFieldName("ts");
            json.writeNumber(t.getEpochSecond() + "." + String.format("%06d", t.getNano() / 1000));
            json.writeStringField("caller", Caller.find());
            KeyValues kv = KeyValues.of(record);
            json.writeStringField("msg", Redaction.scrub(kv == null ? formatMessage(record) : record.getMessage()));
            if (record.getLevel().intValue() < Level.SEVERE.intValue()) {
                json.writeNumberField("v", KlogLevel.verbosity(record.getLevel()));
            }
            if (kv != null) {
                for (int i = 0; i < kv.pairs().size(); i += 2) {
                    json.writeFieldName(String.valueOf(kv.pairs().get(i)));
                    value(json, kv.pairs().get(i + 1));
                }
            }
            if (record.getThrown() != null) {
                json.writeStringField("err", Redaction.scrub(String.valueOf(record.getThrown())));
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.append('\n').toString();
    }

    private static void value(JsonGenerator json, Object value) throws IOException {
        switch (value) {
            case Integer i -> json.writeNumber(i);
            case Long l -> json.writeNumber(l);
            case Double d -> json.writeNumber(d);
            case Boolean b -> json.writeBoolean(b);
            case null -> json.writeNull();
            default -> json.writeString(Redaction.scrub(String.valueOf(value)));
        }
    }
}
