package io.kapi.apis.bootstrap;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** The addresses of the {@code kubernetes} service: its cluster IP and this server's endpoint address. */
final class NetworkAddresses {

    private NetworkAddresses() {
    }

    /**
     * The first address of the (first, primary) range of {@code --service-cluster-ip-range}:
     * {@code 10.96.0.1} for {@code 10.96.0.0/12}. kube-apiserver reserves it for the kubernetes service.
     *
     * @throws IllegalArgumentException if the range is not {@code ip/prefix}
     */
    static String firstServiceIp(String ranges) {
        String range = ranges.split(",")[0].trim();
        int slash = range.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("invalid CIDR address: " + range);
        }
        byte[] ip = InetAddress.ofLiteral(range.substring(0, slash)).getAddress();
        int prefix = Integer.parseInt(range.substring(slash + 1));
        int bits = ip.length * 8;
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("invalid CIDR address: " + range);
        }
        BigInteger hostMask = BigInteger.ONE.shiftLeft(bits - prefix).subtract(BigInteger.ONE);
        BigInteger network = new BigInteger(1, ip).andNot(hostMask);
        return canonical(address(network.add(BigInteger.ONE), ip.length));
    }

    /** IPv4 dotted, IPv6 in the RFC 5952 short form Go prints ({@code fd00::1}). */
    static String canonical(InetAddress address) {
        String text = address.getHostAddress();
        if (address instanceof Inet4Address) {
            return text;
        }
        String[] groups = text.split(":");
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < groups.length; ) {
            int j = i;
            while (j < groups.length && groups[j].equals("0")) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        if (bestStart < 0) {
            return text;
        }
        String head = String.join(":", Arrays.copyOfRange(groups, 0, bestStart));
        String tail = String.join(":", Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
        return head + "::" + tail;
    }

    /**
     * The address written into the kubernetes endpoints: the configured advertise address, or, when
     * it is unspecified ({@code 0.0.0.0}, {@code ::} or empty), the host's first non-loopback IPv4
     * address of an interface that is up (kube-apiserver takes the default route's interface), and
     * {@code 127.0.0.1} on a host without one.
     */
    static String advertise(String configured) {
        if (configured != null && !configured.isBlank() && !InetAddress.ofLiteral(configured).isAnyLocalAddress()) {
            return configured;
        }
        return hostIpv4().orElse("127.0.0.1");
    }

    private static Optional<String> hostIpv4() {
        try {
            List<NetworkInterface> up = NetworkInterface.networkInterfaces()
                    .filter(NetworkAddresses::usable)
                    .sorted(Comparator.comparingInt(NetworkInterface::getIndex))
                    .toList();
            for (NetworkInterface nic : up) {
                for (InetAddress a : nic.inetAddresses().toList()) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                        return Optional.of(a.getHostAddress());
                    }
                }
            }
        } catch (SocketException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static boolean usable(NetworkInterface nic) {
        try {
            return nic.isUp() && !nic.isLoopback() && !nic.isVirtual();
        } catch (SocketException e) {
            return false;
        }
    }

    private static InetAddress address(BigInteger value, int length) {
        byte[] raw = value.toByteArray();
        byte[] bytes = new byte[length];
        int copy = Math.min(raw.length, length);
        System.arraycopy(raw, raw.length - copy, bytes, length - copy, copy);
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
