package io.kapi.certs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The subject alternative names the serving certificate must carry.
 *
 * @param dnsNames host names, e.g. {@code kubernetes.default.svc}
 * @param ipAddresses IP literals, e.g. {@code 10.96.0.1}
 */
public record ServingNames(List<String> dnsNames, List<String> ipAddresses) {

    public ServingNames {
        dnsNames = List.copyOf(new LinkedHashSet<>(dnsNames));
        ipAddresses = List.copyOf(new LinkedHashSet<>(ipAddresses));
    }

    /**
     * The names kube-apiserver's self-signed certificate carries: localhost, 127.0.0.1, the host
     * name, the in-cluster service names and IP, and the specific addresses the server listens or is
     * advertised at ({@code 0.0.0.0} and {@code ::} are not specific and are skipped).
     */
    public static ServingNames standard(String hostName, String serviceIp, List<String> extraAddresses) {
        List<String> dns = new ArrayList<>(List.of("localhost"));
        if (hostName != null && !hostName.isBlank()) {
            dns.add(hostName);
        }
        dns.addAll(List.of("kubernetes", "kubernetes.default", "kubernetes.default.svc",
                "kubernetes.default.svc.cluster.local"));
        List<String> ips = new ArrayList<>(List.of("127.0.0.1", serviceIp));
        for (String address : extraAddresses) {
            if (address != null && !address.isBlank() && !address.equals("0.0.0.0") && !address.equals("::")) {
                ips.add(address);
            }
        }
        return new ServingNames(dns, ips);
    }
}
