package io.kapi.cli;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/**
 * The address the server is advertised at when {@code --advertise-address} is not given: the bind
 * address if it is specific, else (as kube-apiserver picks "the host's default interface") the first
 * IPv4 address of an interface that is up and not loopback, else 127.0.0.1.
 */
final class HostAddress {

    private HostAddress() {
    }

    static String advertise(String advertiseAddress, String bindAddress) {
        if (advertiseAddress != null) {
            return advertiseAddress;
        }
        if (!bindAddress.equals("0.0.0.0") && !InetAddress.ofLiteral(bindAddress).isAnyLocalAddress()) {
            return bindAddress;
        }
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            // fall through to loopback
        }
        return "127.0.0.1";
    }
}
