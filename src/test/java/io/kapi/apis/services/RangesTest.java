package io.kapi.apis.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RangesTest {

    @Test
    @DisplayName("an IPv4 range excludes its network and broadcast addresses and keeps kube's lower band")
    void ipv4() {
        IpRange r = IpRange.parse("10.96.0.0/12");
        assertEquals("10.96.0.1", r.address(BigInteger.ZERO));
        assertEquals(BigInteger.valueOf((1 << 20) - 2), r.size());
        assertEquals(256, r.offset());
        assertTrue(r.contains("10.111.255.254"));
        assertFalse(r.contains("10.111.255.255"));
        assertFalse(r.contains("10.96.0.0"));
        assertEquals(16, IpRange.parse("192.168.0.0/24").offset());
        assertEquals(0, IpRange.parse("192.168.0.0/29").offset());
    }

    @Test
    @DisplayName("an IPv6 range excludes only its network address; addresses are named as RFC 5952")
    void ipv6() {
        IpRange r = IpRange.parse("fd00:10:96::/108");
        assertEquals("fd00:10:96::1", r.address(BigInteger.ZERO));
        assertTrue(r.contains("fd00:10:96:0:0:0:f:ffff"));
        assertEquals("fd00:10:96::f:ffff", IpRange.canonical("fd00:10:96:0:0:0:f:ffff"));
        assertEquals("2001:db8::1:0:0:1", IpRange.canonical("2001:db8:0:0:1:0:0:1"));
        assertFalse(r.contains("10.96.0.1"));
    }

    @Test
    @DisplayName("node port ranges parse as low-high and keep size/32 (16..128) ports for static requests")
    void ports() {
        PortRange p = PortRange.parse("30000-32767");
        assertEquals(PortRange.DEFAULT, p);
        assertEquals(86, p.offset());
        assertEquals("30000-32767", p.toString());
        assertThrows(IllegalArgumentException.class, () -> PortRange.parse("32767-30000"));
    }

    @Test
    @DisplayName("the cluster IP range flag takes one CIDR or one of each family")
    void serviceRanges() {
        assertEquals(2, ServiceRanges.parse("10.96.0.0/16, fd00::/108", "30000-32767").ipRanges().size());
        assertThrows(IllegalArgumentException.class, () -> ServiceRanges.parse("10.96.0.0/16,10.97.0.0/16", "30000-32767"));
    }
}
