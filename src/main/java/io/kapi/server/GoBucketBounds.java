package io.kapi.server;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes the {@code le} bounds of the Prometheus text format as Go's client writes them
 * ({@code strconv.FormatFloat(f, 'g', -1, 64)}: {@code le="1"}, {@code le="0.005"}, {@code le="1e+06"}),
 * where Prometheus' Java client writes Java's {@code 1.0}. Label values are strings to Prometheus: the
 * kubernetes-mixin's SLO rules select {@code le="1"}, {@code le="5"} and {@code le="30"}, and would find
 * nothing under {@code le="1.0"}. Everything else passes through unchanged, line by line.
 */
final class GoBucketBounds extends FilterOutputStream {

    private static final byte[] LE = "le=\"".getBytes(StandardCharsets.US_ASCII);
    /** The bounds seen so far in Go's form: histograms' bounds are a few dozen fixed values (bounded anyway). */
    private static final Map<String, byte[]> FORMATTED = new ConcurrentHashMap<>();
    private static final int MAX_FORMATTED = 1024;

    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    GoBucketBounds(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        line.write(b);
        if (b == '\n') {
            flushLine();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                line.write(b, start, i + 1 - start);
                flushLine();
                start = i + 1;
            }
        }
        line.write(b, start, off + len - start);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Writes what is left of the last line; the stream underneath stays open (the response owns it). */
    void finish() throws IOException {
        flushLine();
        out.flush();
    }

    private void flushLine() throws IOException {
        byte[] bytes = line.toByteArray();
        line.reset();
        int at = bytes.length > 0 && bytes[0] != '#' ? indexOf(bytes, LE, 1) : -1;
        while (at > 0 && bytes[at - 1] != '{' && bytes[at - 1] != ',') {
            at = indexOf(bytes, LE, at + 1);
        }
        if (at < 0) {
            out.write(bytes);
            return;
        }
        int valueStart = at + LE.length;
        int valueEnd = valueStart;
        while (valueEnd < bytes.length && bytes[valueEnd] != '"') {
            valueEnd++;
        }
        String bound = new String(bytes, valueStart, valueEnd - valueStart, StandardCharsets.US_ASCII);
        out.write(bytes, 0, valueStart);
        byte[] formatted = FORMATTED.get(bound);
        if (formatted == null) {
            formatted = goFormat(bound).getBytes(StandardCharsets.US_ASCII);
            if (FORMATTED.size() < MAX_FORMATTED) {
                FORMATTED.put(bound, formatted);
            }
        }
        out.write(formatted);
        out.write(bytes, valueEnd, bytes.length - valueEnd);
    }

    /** {@code bound} (a number as Java writes it, or {@code +Inf}) as Go's shortest {@code 'g'} format. */
    static String goFormat(String bound) {
        double value;
        try {
            value = Double.parseDouble(bound);
        } catch (NumberFormatException e) {
            return bound;
        }
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == 0) {
            return "0";
        }
        BigDecimal decimal = new BigDecimal(Double.toString(Math.abs(value))).stripTrailingZeros();
        String digits = decimal.unscaledValue().toString();
        int exponent = digits.length() - 1 - decimal.scale();
        String sign = value < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 6) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            int magnitude = Math.abs(exponent);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (magnitude < 10 ? "0" : "") + magnitude;
        }
        return sign + decimal.toPlainString();
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
