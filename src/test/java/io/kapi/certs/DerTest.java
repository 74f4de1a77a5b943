package io.kapi.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("DER encoding of certificates' and keys' ASN.1")
class DerTest {

    private static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replace(" ", ""));
    }

    @Test
    @DisplayName("object identifiers, integers, booleans and strings encode as X.690 gives them")
    void encodings() {
        assertArrayEquals(hex("06 09 2a 86 48 86 f7 0d 01 01 0b"), Der.oid("1.2.840.113549.1.1.11"));
        assertArrayEquals(hex("06 03 55 1d 23"), Der.oid("2.5.29.35"));
        assertArrayEquals(hex("06 03 88 37 03"), Der.oid("2.999.3"));
        assertArrayEquals(hex("02 01 00"), Der.integer(BigInteger.ZERO));
        assertArrayEquals(hex("02 02 00 80"), Der.integer(BigInteger.valueOf(128)));
        assertArrayEquals(hex("02 01 80"), Der.integer(BigInteger.valueOf(-128)));
        assertArrayEquals(hex("01 01 ff"), Der.bool(true));
        assertArrayEquals(hex("05 00"), Der.nul());
        assertArrayEquals(hex("0c 02 c3 a9"), Der.utf8("é"));
        assertArrayEquals(hex("03 02 01 86"), Der.bits(new byte[] {(byte) 0x86}, 1));
        assertArrayEquals(hex("a0 03 02 01 02"), Der.explicit(0, Der.integer(BigInteger.TWO)));
        assertArrayEquals(hex("82 01 61"), Der.implicit(2, new byte[] {'a'}));
    }

    @Test
    @DisplayName("lengths of 128 bytes and more take the long form")
    void longLengths() {
        byte[] big = Der.octets(new byte[300]);
        assertArrayEquals(hex("04 82 01 2c"), java.util.Arrays.copyOf(big, 4));
        assertEquals(304, big.length);
        assertEquals(300, Der.read(big).content().length);
        assertArrayEquals(hex("04 81 80"), java.util.Arrays.copyOf(Der.octets(new byte[128]), 3));
    }

    @Test
    @DisplayName("times are UTCTime through 2049 and GeneralizedTime from 2050, to the second")
    void times() {
        assertEquals("170d3236313230333036303030355a", HexFormat.of().formatHex(Der.time(Instant.parse("2026-12-03T06:00:05Z"))));
        assertEquals("180f32303530303130313030303030305a",
                HexFormat.of().formatHex(Der.time(Instant.parse("2050-01-01T00:00:00Z"))));
        assertEquals("\u0018\u000f19491231235959Z", new String(Der.time(Instant.parse("1949-12-31T23:59:59Z")),
                java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("\u0017\r500101000000Z", new String(Der.time(Instant.parse("1950-01-01T00:00:00.9Z")),
                java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("\u0018\u000f09990102030405Z", new String(Der.time(Instant.parse("0999-01-02T03:04:05Z")),
                java.nio.charset.StandardCharsets.US_ASCII));
        assertThrows(IllegalArgumentException.class, () -> Der.time(Instant.parse("+10000-01-01T00:00:00Z")));
    }

    @Test
    @DisplayName("what is written reads back: nested elements, object identifiers, integers, strings")
    void roundTrip() {
        byte[] der = Der.sequence(Der.oid("1.2.840.10045.3.1.7"), Der.integer(new BigInteger("-123456789012345678901234567890")),
                Der.set(Der.utf8("kapi")), Der.bits(new byte[] {1, 2, 3}));
        Der.Element seq = Der.read(der).expect(Der.SEQUENCE);
        assertEquals("1.2.840.10045.3.1.7", seq.child(0).oid());
        assertEquals(new BigInteger("-123456789012345678901234567890"), seq.child(1).integer());
        assertEquals("kapi", seq.child(2).expect(Der.SET).child(0).string());
        assertArrayEquals(new byte[] {1, 2, 3}, seq.child(3).bitStringBytes());
        assertEquals("2.999.3", Der.read(Der.oid("2.999.3")).oid());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",             // nothing
        "30",           // a tag without a length
        "30 05 02 01",  // content shorter than its length
        "30 80 00 00",  // indefinite length (BER, not DER)
        "04 85 01 00 00 00 00", // a five-byte length
        "04 84 7f ff ff ff 00", // a length past the input
        "1f 01 00",     // a high tag number
        "05 00 00",     // trailing data
        "06 02 2a 86",  // an object identifier that stops inside an arc
    })
    @DisplayName("malformed encodings are refused, never read past their end")
    void malformed(String text) {
        assertThrows(IllegalArgumentException.class, () -> {
            Der.Element element = Der.read(hex(text));
            if (element.tag() == Der.OID) {
                element.oid();
            }
        });
    }

    @Test
    @DisplayName("a child past the end of a sequence, or the wrong type, is an error")
    void wrongShape() {
        Der.Element seq = Der.read(Der.sequence(Der.nul()));
        assertThrows(IllegalArgumentException.class, () -> seq.child(1));
        assertThrows(IllegalArgumentException.class, () -> seq.child(0).integer());
        assertThrows(IllegalArgumentException.class, () -> Der.read(Der.bits(new byte[] {1}, 3)).bitStringBytes());
    }
}
