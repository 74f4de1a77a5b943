package io.kapi.apis.bootstrap;

import io.kapi.machinery.net.Cidr;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
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
        return Cidr.parseSloppy(ranges.split(",")[0].trim()).firstAddress();
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
}
