package io.kapi.simulation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;

/**
 * One node the simulation runs: what it reports (name, shape, topology, addresses, Pod CIDR) and its
 * kubelet's state (the client acting as {@code system:node:<name>}, the last Lease written, when the status
 * was last reported, its Pods' IPs).
 */
final class SimulatedNode {

    private final String name;
    private final NodeShape shape;
    private final String zone;
    private final String region;
    private final String podCidr;
    private final String hostIp;
    private final String bootId = UUID.randomUUID().toString();
    private final Instant registered;
    private final LocalClient client;
    private final PodAddresses addresses;
    private final NodeResources resources;
    volatile String uid;
    volatile ObjectNode lease;
    volatile Instant lastReport;
    volatile ScheduledFuture<?> heartbeat;

    SimulatedNode(String name, NodeShape shape, String zone, String region, String podCidr, String hostIp,
                  Instant registered, LocalClient client) {
        this.name = name;
        this.shape = shape;
        this.zone = zone;
        this.region = region;
        this.podCidr = podCidr;
        this.hostIp = hostIp;
        this.registered = registered;
        this.client = client;
        this.addresses = new PodAddresses(podCidr);
        this.resources = new NodeResources(shape);
    }

    /** The Pod CIDR and host IP of the {@code index}th node: {@code 10.244.0.0/24} …, {@code 172.18.0.2} … */
    static String podCidr(int index) {
        return "10." + (244 + index / 256) + "." + (index % 256) + ".0/24";
    }

    static String hostIp(int index) {
        return "172.18." + ((index + 2) / 256) + "." + ((index + 2) % 256);
    }

    /** How many nodes {@link #podCidr} can number (10.244.0.0 to 10.255.255.0). */
    static final int MAX_NODES = 12 * 256;

    String name() {
        return name;
    }

    NodeShape shape() {
        return shape;
    }

    String zone() {
        return zone;
    }

    String region() {
        return region;
    }

    String podCidr() {
        return podCidr;
    }

    String hostIp() {
        return hostIp;
    }

    String bootId() {
        return bootId;
    }

    Instant registered() {
        return registered;
    }

    LocalClient client() {
        return client;
    }

    PodAddresses addresses() {
        return addresses;
    }

    NodeResources resources() {
        return resources;
    }
}
