package io.kapi.apis.services;

import java.util.Arrays;
import java.util.List;

/**
 * The service ranges of a cluster: one cluster IP CIDR per family (primary first; two make the
 * cluster dual-stack) and the node port range.
 */
public record ServiceRanges(List<String> clusterIpCidrs, String nodePorts) {

    public static final ServiceRanges DEFAULT = new ServiceRanges(List.of("10.96.0.0/12"), "30000-32767");

    /**
     * From the flags {@code --service-cluster-ip-range} (one CIDR or two of different families,
     * comma-separated) and {@code --service-node-port-range}.
     *
     * @throws IllegalArgumentException for a malformed range, more than two CIDRs or two of one family
     */
    public static ServiceRanges parse(String clusterIpRange, String nodePortRange) {
        List<String> cidrs = Arrays.stream(clusterIpRange.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        ServiceRanges ranges = new ServiceRanges(cidrs, nodePortRange);
        List<IpRange> parsed = ranges.ipRanges();
        if (parsed.isEmpty() || parsed.size() > 2
                || (parsed.size() == 2 && parsed.get(0).family().equals(parsed.get(1).family()))) {
            throw new IllegalArgumentException("--service-cluster-ip-range must be one CIDR or two of different "
                    + "IP families, not " + clusterIpRange);
        }
        ranges.portRange();
        return ranges;
    }

    List<IpRange> ipRanges() {
        return clusterIpCidrs.stream().map(IpRange::parse).toList();
    }

    PortRange portRange() {
        return PortRange.parse(nodePorts);
    }
}
