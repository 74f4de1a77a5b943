package io.kapi.certs;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The DER encoding (ITU-T X.690) of the few ASN.1 types that certificates, names and keys are made
 * of: enough to issue Kapi's own certificates and to read PEM files with the JDK's key factories, so
 * that a start needs no ASN.1 library (Bouncy Castle's jars are signed: verifying them and loading
 * its classes was a fifth of a fresh JVM's first in-process server). Reading is bounded by its
 * input: lengths are checked against what is there, and a malformed encoding is an
 * {@link IllegalArgumentException}.
 */
final class Der {

    static final int BOOLEAN = 0x01;
    static final int INTEGER = 0x02;
    static final int BIT_STRING = 0x03;
    static final int OCTET_STRING = 0x04;
    static final int NULL = 0x05;
    static final int OID = 0x06;
    static final int UTF8_STRING = 0x0c;
    static final int NUMERIC_STRING = 0x12;
    static final int PRINTABLE_STRING = 0x13;
    static final int T61_STRING = 0x14;
    static final int IA5_STRING = 0x16;
    static final int UTC_TIME = 0x17;
    static final int GENERALIZED_TIME = 0x18;
    static final int BMP_STRING = 0x1e;
    static final int SEQUENCE = 0x30;
    static final int SET = 0x31;

    private static final int CONTEXT = 0x80;
    private static final int CONSTRUCTED = 0x20;

    private Der() {
    }

    /** One element: its tag and where its content lies in {@code source}. */
    record Element(int tag, byte[] source, int start, int end) {

        byte[] content() {
            return java.util.Arrays.copyOfRange(source, start, end);
        }

        /** The element encoded again, tag and length included (the same bytes, for DER input). */
        byte[] encoded() {
            return tlv(tag, content());
        }

        /** The elements a constructed element holds, in order. */
        List<Element> children() {
            List<Element> children = new ArrayList<>();
            for (int at = start; at < end; ) {
                Element child = readAt(source, at, end);
                children.add(child);
                at = child.end;
            }
            return children;
        }

        Element child(int index) {
            List<Element> children = children();
            if (index >= children.size()) {
                throw new IllegalArgumentException("ASN.1 element has " + children.size() + " parts, not " + (index + 1));
            }
            return children.get(index);
        }

        Element expect(int expected) {
            if (tag != expected) {
                throw new IllegalArgumentException("ASN.1 tag 0x%02x where 0x%02x was expected".formatted(tag, expected));
            }
            return this;
        }

        boolean isContext(int number) {
            return (tag & ~CONSTRUCTED) == (CONTEXT | number);
        }

        BigInteger integer() {
            expect(INTEGER);
            if (end == start) {
                throw new IllegalArgumentException("empty ASN.1 INTEGER");
            }
            return new BigInteger(content());
        }

        String oid() {
            expect(OID);
            StringBuilder dotted = new StringBuilder();
            long value = 0;
            boolean first = true;
            for (int i = start; i < end; i++) {
                if (value > (Long.MAX_VALUE >> 7)) {
                    throw new IllegalArgumentException("ASN.1 OBJECT IDENTIFIER arc too large");
                }
                value = (value << 7) | (source[i] & 0x7f);
                if ((source[i] & 0x80) != 0) {
                    continue;
                }
                if (first) {
                    long top = Math.min(value / 40, 2);
                    dotted.append(top).append('.').append(value - top * 40);
                    first = false;
                } else {
                    dotted.append('.').append(value);
                }
                value = 0;
            }
            if (first || (source[end - 1] & 0x80) != 0) {
                throw new IllegalArgumentException("malformed ASN.1 OBJECT IDENTIFIER");
            }
            return dotted.toString();
        }

        /** The bytes of a BIT STRING whose bit count is a multiple of eight (keys, signatures). */
        byte[] bitStringBytes() {
            expect(BIT_STRING);
            if (end == start || source[start] != 0) {
                throw new IllegalArgumentException("ASN.1 BIT STRING is not whole bytes");
            }
            return java.util.Arrays.copyOfRange(source, start + 1, end);
        }

        /** The text of a string type, as Go's encoding/asn1 reads it into a string; null for other types. */
        String string() {
            return switch (tag) {
                case UTF8_STRING -> new String(source, start, end - start, StandardCharsets.UTF_8);
                case PRINTABLE_STRING, IA5_STRING, NUMERIC_STRING -> new String(source, start, end - start,
                        StandardCharsets.US_ASCII);
                case T61_STRING -> new String(source, start, end - start, StandardCharsets.ISO_8859_1);
                case BMP_STRING -> new String(source, start, end - start, StandardCharsets.UTF_16BE);
                default -> null;
            };
        }
    }

    /** The single element {@code der} holds; throws if it holds anything else after it. */
    static Element read(byte[] der) {
        Element element = readAt(der, 0, der.length);
        if (element.end != der.length) {
            throw new IllegalArgumentException("trailing data after ASN.1 element");
        }
        return element;
    }

    private static Element readAt(byte[] source, int at, int limit) {
        if (limit - at < 2) {
            throw new IllegalArgumentException("truncated ASN.1 element");
        }
        int tag = source[at] & 0xff;
        if ((tag & 0x1f) == 0x1f) {
            throw new IllegalArgumentException("unsupported ASN.1 tag 0x%02x".formatted(tag));
        }
        int first = source[at + 1] & 0xff;
        int contentStart = at + 2;
        long length = first;
        if (first >= 0x80) {
            int octets = first & 0x7f;
            if (octets == 0 || octets > 4 || limit - contentStart < octets) {
                throw new IllegalArgumentException("unsupported or truncated ASN.1 length");
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = (length << 8) | (source[contentStart + i] & 0xff);
            }
            contentStart += octets;
        }
        if (length > limit - contentStart) {
            throw new IllegalArgumentException("truncated ASN.1 element");
        }
        return new Element(tag, source, contentStart, contentStart + (int) length);
    }

    static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int octets = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | octets);
            for (int i = octets - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    static byte[] sequence(byte[]... parts) {
        return tlv(SEQUENCE, concat(parts));
    }

    static byte[] sequence(List<byte[]> parts) {
        return sequence(parts.toArray(byte[][]::new));
    }

    static byte[] set(byte[]... parts) {
        return tlv(SET, concat(parts));
    }

    static byte[] integer(BigInteger value) {
        return tlv(INTEGER, value.toByteArray());
    }

    static byte[] bool(boolean value) {
        return tlv(BOOLEAN, new byte[] {value ? (byte) 0xff : 0});
    }

    static byte[] nul() {
        return tlv(NULL, new byte[0]);
    }

    static byte[] octets(byte[] value) {
        return tlv(OCTET_STRING, value);
    }

    /** A BIT STRING of whole bytes. */
    static byte[] bits(byte[] value) {
        return bits(value, 0);
    }

    /** A BIT STRING of {@code value}, the last {@code unused} bits of its last byte not part of it. */
    static byte[] bits(byte[] value, int unused) {
        byte[] content = new byte[value.length + 1];
        content[0] = (byte) unused;
        System.arraycopy(value, 0, content, 1, value.length);
        return tlv(BIT_STRING, content);
    }

    static byte[] utf8(String value) {
        return tlv(UTF8_STRING, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A time as RFC 5280 wants it: UTCTime through 2049, GeneralizedTime from 2050, to the second. */
    static byte[] time(Instant instant) {
        LocalDateTime t = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        // YYMMDDHHMMSSZ or YYYYMMDDHHMMSSZ, written out (a date-time formatter is slow to make in a fresh JVM)
        boolean utcTime = t.getYear() >= 1950 && t.getYear() < 2050;
        String text = (utcTime ? twoDigits(t.getYear() % 100) : fourDigits(t.getYear()))
                + twoDigits(t.getMonthValue()) + twoDigits(t.getDayOfMonth()) + twoDigits(t.getHour())
                + twoDigits(t.getMinute()) + twoDigits(t.getSecond()) + "Z";
        return tlv(utcTime ? UTC_TIME : GENERALIZED_TIME, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String twoDigits(int v) {
        return v < 10 ? "0" + v : Integer.toString(v);
    }

    private static String fourDigits(int year) {
        if (year < 0 || year > 9999) {
            throw new IllegalArgumentException("a certificate's time is in the years 0 to 9999, not " + year);
        }
        String digits = Integer.toString(year);
        return "0".repeat(4 - digits.length()) + digits;
    }

    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        if (arcs.length < 2) {
            throw new IllegalArgumentException("an OBJECT IDENTIFIER has two arcs or more: " + dotted);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeArc(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            writeArc(out, Long.parseLong(arcs[i]));
        }
        return tlv(OID, out.toByteArray());
    }

    /** An explicitly tagged value: {@code [number] EXPLICIT}. */
    static byte[] explicit(int number, byte[] encoded) {
        return tlv(CONTEXT | CONSTRUCTED | number, encoded);
    }

    /** An implicitly tagged primitive value: {@code [number] IMPLICIT}, given its content. */
    static byte[] implicit(int number, byte[] content) {
        return tlv(CONTEXT | number, content);
    }

    private static void writeArc(ByteArrayOutputStream out, long arc) {
        int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
        for (int i = groups - 1; i >= 0; i--) {
            out.write((int) ((arc >>> (7 * i)) & 0x7f) | (i > 0 ? 0x80 : 0));
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
