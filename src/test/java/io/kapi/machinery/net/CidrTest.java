package io.kapi.machinery.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Addresses and ranges as Go's {@code netip.ParseAddr}, {@code net.ParseCIDR} and kube's sloppy parsers read them. */
class CidrTest {

    @ParameterizedTest(name = "{0} is {1} {2}")
    @DisplayName("addresses parse strictly and print canonically (netip's ParseAddr and String)")
    @CsvSource({
        "10.96.0.1, IPV4, 10.96.0.1", "0.0.0.0, IPV4, 0.0.0.0", "255.255.255.255, IPV4, 255.255.255.255",
        "::, IPV6, ::", "::1, IPV6, ::1", "fd00:10:96:0:0:0:f:ffff, IPV6, fd00:10:96::f:ffff",
        "2001:db8:0:0:1:0:0:1, IPV6, 2001:db8::1:0:0:1", "2001:DB8::0001, IPV6, 2001:db8::1",
        "1:0:0:2:0:0:0:3, IPV6, 1:0:0:2::3", "1:2:3:4:5:6:7:8, IPV6, 1:2:3:4:5:6:7:8", "1:0:2:3:4:5:6:7, IPV6, 1:0:2:3:4:5:6:7",
        "::1.2.3.4, IPV6, ::102:304", "1:2:3:4:5:6:1.2.3.4, IPV6, 1:2:3:4:5:6:102:304", "fe80::, IPV6, fe80::"})
    void addresses(String text, IpFamily family, String canonical) {
        IpAddress ip = IpAddress.parse(text);
        assertEquals(family, ip.family());
        assertEquals(canonical, ip.toString());
        assertEquals(ip, IpAddress.parse(canonical));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @DisplayName("what netip refuses is no address: short forms, leading zeros, zones, brackets, garbage")
    @ValueSource(strings = {"", "1", "10.96", "10.96.0", "1.2.3.4.5", "010.1.2.3", "1.2.3.256", "1..2.3", "1.2.3.",
        ".1.2.3", "1.2.3.4 ", " 1.2.3.4", "fe80::1%eth0", "[::1]", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::1", ":1",
        "1:", "1:2:3:4:5:6:7::8:9", "::1.2.3", "1.2.3.4::", "0x10.1.1.1", "abc", "1:2:3:4:5:6:7:1.2.3.4", "1:2:3:4:5:6:7:8::"})
    void notAddresses(String text) {
        assertNull(IpAddress.parseOrNull(text));
        assertThrows(IllegalArgumentException.class, () -> IpAddress.parse(text));
    }

    @Test
    @DisplayName("the sloppy parser of kube's flags reads IPv4 leading zeros as decimal")
    void sloppy() {
        assertEquals("10.96.0.1", IpAddress.parseSloppy("010.096.000.001").toString());
        assertEquals("::a01:203", IpAddress.parseSloppy("::010.1.2.3").toString());
        assertEquals("10.96.0.0/12", Cidr.parseSloppy("010.096.0.0/12").toString());
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse("010.096.0.0/12"));
        assertThrows(IllegalArgumentException.class, () -> IpAddress.parseSloppy("10.96"));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @DisplayName("ParseCIDR: the network address with host bits cleared")
    @CsvSource({"10.96.0.0/12, 10.96.0.0/12, 20", "10.100.3.4/12, 10.96.0.0/12, 20", "10.0.0.7/24, 10.0.0.0/24, 8",
        "0.0.0.0/0, 0.0.0.0/0, 32", "1.2.3.4/32, 1.2.3.4/32, 0", "fd00:10:96::/108, fd00:10:96::/108, 20",
        "2001:db8::1/64, 2001:db8::/64, 64", "::/0, ::/0, 128", "10.1.2.3/024, 10.1.2.0/24, 8"})
    void ranges(String text, String canonical, int hostBits) {
        Cidr cidr = Cidr.parse(text);
        assertEquals(canonical, cidr.toString());
        assertEquals(hostBits, cidr.hostBits());
        assertEquals(BigInteger.ONE.shiftLeft(hostBits), cidr.size());
    }

    @ParameterizedTest(name = "\"{0}\"")
    @DisplayName("what ParseCIDR refuses, with its message")
    @ValueSource(strings = {"10.96.0.0", "10.96.0.0/", "10.96.0.0/33", "fd00::/129", "10.96/12", "10.96.0.0/-1",
        "10.96.0.0/1a", "10.96.0.0 /12", "10.96.0.0/ 12", "fe80::%eth0/64", "/12", "[fd00::]/64"})
    void notRanges(String text) {
        assertEquals("invalid CIDR address: " + text,
                assertThrows(IllegalArgumentException.class, () -> Cidr.parse(text)).getMessage());
    }

    @Test
    @DisplayName("address arithmetic: offsets, containment by family, the first service IP")
    void arithmetic() {
        Cidr v4 = Cidr.parse("10.96.0.0/12");
        assertEquals("10.96.0.1", v4.firstAddress());
        assertEquals("10.111.255.255", v4.address(v4.size().subtract(BigInteger.ONE)).toString());
        assertThrows(IllegalArgumentException.class, () -> v4.address(v4.size()));
        assertEquals(BigInteger.valueOf(257), v4.offsetOf(IpAddress.parse("10.96.1.1")));
        assertTrue(v4.contains(IpAddress.parse("10.111.255.255")));
        assertFalse(v4.contains(IpAddress.parse("10.112.0.0")));
        assertFalse(v4.contains(IpAddress.parse("::a60:1")));
        Cidr v6 = Cidr.parse("fd00::/108");
        assertEquals("fd00::1", v6.firstAddress());
        assertEquals("fd00::f:ffff", v6.address(v6.size().subtract(BigInteger.ONE)).toString());
        assertEquals(IpFamily.IPV6, v6.family());
        assertEquals("IPv6", v6.family().label());
    }
}
