package io.kapi.machinery.net;

import java.math.BigInteger;

/** The address syntax of Go's {@code netip.ParseAddr} (strict) and of kube's sloppy IPv4 fields. */
final class IpSyntax {

    private IpSyntax() {
    }

    static IpAddress parse(String s, boolean sloppy) {
        for (int i = 0; i < s.length(); i++) {
            switch (s.charAt(i)) {
                case '.' -> {
                    return new IpAddress(IpFamily.IPV4, BigInteger.valueOf(ipv4(s, 0, s.length(), sloppy)));
                }
                case ':' -> {
                    return new IpAddress(IpFamily.IPV6, new BigInteger(1, ipv6(s, sloppy)));
                }
                default -> {
                }
            }
        }
        throw bad(s);
    }

    /** Four dotted decimal fields in {@code s[from, to)}, as an unsigned 32-bit number. */
    private static long ipv4(String s, int from, int to, boolean sloppy) {
        long address = 0;
        int fields = 0;
        int value = 0;
        int digits = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                if (!sloppy && digits == 1 && value == 0) {
                    throw bad(s);
                }
                value = value * 10 + (c - '0');
                digits++;
                if (value > 255) {
                    throw bad(s);
                }
            } else if (c == '.') {
                if (digits == 0 || i == to - 1 || fields == 3) {
                    throw bad(s);
                }
                address = (address << 8) | value;
                fields++;
                value = 0;
                digits = 0;
            } else {
                throw bad(s);
            }
        }
        if (fields < 3 || digits == 0) {
            throw bad(s);
        }
        return (address << 8) | value;
    }

    /** {@code parseIPv6}: hex groups, one {@code ::} at most, an embedded IPv4 as the last 32 bits. */
    private static byte[] ipv6(String in, boolean sloppy) {
        if (in.indexOf('%') >= 0) {
            throw bad(in);
        }
        byte[] ip = new byte[16];
        int ellipsis = -1;
        int pos = 0;
        int end = in.length();
        if (end >= 2 && in.charAt(0) == ':' && in.charAt(1) == ':') {
            ellipsis = 0;
            pos = 2;
            if (pos == end) {
                return ip;
            }
        }
        int i = 0;
        while (i < 16) {
            int off = pos;
            int acc = 0;
            while (off < end && Character.digit(in.charAt(off), 16) >= 0 && in.charAt(off) < 0x80) {
                acc = (acc << 4) + Character.digit(in.charAt(off), 16);
                off++;
                if (off - pos > 4) {
                    throw bad(in);
                }
            }
            if (off == pos) {
                throw bad(in);
            }
            if (off < end && in.charAt(off) == '.') {
                if ((ellipsis < 0 && i != 12) || i + 4 > 16) {
                    throw bad(in);
                }
                long v4 = ipv4(in, pos, end, sloppy);
                for (int k = 0; k < 4; k++) {
                    ip[i + k] = (byte) (v4 >>> (24 - 8 * k));
                }
                i += 4;
                pos = end;
                break;
            }
            ip[i] = (byte) (acc >> 8);
            ip[i + 1] = (byte) acc;
            i += 2;
            pos = off;
            if (pos == end) {
                break;
            }
            if (in.charAt(pos) != ':' || pos + 1 == end) {
                throw bad(in);
            }
            pos++;
            if (in.charAt(pos) == ':') {
                if (ellipsis >= 0) {
                    throw bad(in);
                }
                ellipsis = i;
                pos++;
                if (pos == end) {
                    break;
                }
            }
        }
        if (pos != end) {
            throw bad(in);
        }
        if (i < 16) {
            if (ellipsis < 0) {
                throw bad(in);
            }
            int n = 16 - i;
            System.arraycopy(ip, ellipsis, ip, ellipsis + n, i - ellipsis);
            java.util.Arrays.fill(ip, ellipsis, ellipsis + n, (byte) 0);
        } else if (ellipsis >= 0) {
            throw bad(in);
        }
        return ip;
    }

    private static IllegalArgumentException bad(String s) {
        return new IllegalArgumentException("ParseAddr(\"" + s + "\"): not an IP address");
    }
}
