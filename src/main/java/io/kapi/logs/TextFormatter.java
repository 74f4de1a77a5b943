package io.kapi.logs;

import io.kapi.machinery.GoStrings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * klog's text lines: {@code I1205 21:06:35.123456 filter/RequestLog.java:42] "HTTP" verb="GET" resp=200}
 * for a structured record, the formatted message unquoted for a plain one; a thrown exception follows
 * as {@code err="..."}, with its stack for an error (and for anything at {@code -v=4} and up).
 */
final class TextFormatter extends Formatter {

    @Override
    public String format(LogRecord record) {
        StringBuilder line = new StringBuilder(160);
        ZonedDateTime t = record.getInstant().atZone(ZoneId.systemDefault());
        line.append(severity(record.getLevel()));
        two(line, t.getMonthValue());
        two(line, t.getDayOfMonth());
        line.append(' ');
        two(line, t.getHour());
        line.append(':');
        two(line, t.getMinute());
        line.append(':');
        two(line, t.getSecond());
        line.append('.').append(String.format("%06d", t.getNano() / 1000));
        line.append(' ').append(Caller.find()).append("] ");
        KeyValues kv = KeyValues.of(record);
        if (kv == null) {
            line.append(Redaction.scrub(formatMessage(record)));
        } else {
            GoStrings.appendQuoted(line, Redaction.scrub(record.getMessage()));
            for (int i = 0; i < kv.pairs().size(); i += 2) {
                line.append(' ').append(kv.pairs().get(i)).append('=');
                value(line, kv.pairs().get(i + 1));
            }
        }
        Throwable thrown = record.getThrown();
        if (thrown != null) {
            line.append(" err=");
            GoStrings.appendQuoted(line, Redaction.scrub(String.valueOf(thrown)));
            if (record.getLevel().intValue() >= Level.SEVERE.intValue() || Verbosity.get() >= 4) {
                StringWriter stack = new StringWriter();
                thrown.printStackTrace(new PrintWriter(stack));
                line.append('\n').append(Redaction.scrub(stack.toString().stripTrailing()));
            }
        }
        return line.append('\n').toString();
    }

    private static void value(StringBuilder line, Object value) {
        if (value instanceof Number || value instanceof Boolean) {
            line.append(value);
        } else {
            GoStrings.appendQuoted(line, Redaction.scrub(String.valueOf(value)));
        }
    }

    private static char severity(Level level) {
        int v = level.intValue();
        return v >= Level.SEVERE.intValue() ? 'E' : v >= Level.WARNING.intValue() ? 'W' : 'I';
    }

    private static void two(StringBuilder line, int n) {
        if (n < 10) {
            line.append('0');
        }
        line.append(n);
    }
}
