package io.kapi.simulation;

import java.util.HashMap;
import java.util.Map;

/**
 * The IPs of one node's Pod CIDR (IPv4), handed to Pods' sandboxes as a CNI's host-local IPAM hands them:
 * the network's first address is the bridge's, Pods get the next free ones, in turn, and give them back
 * when they are deleted.
 */
final class PodAddresses {

    private final long network;
    private final int size;
    private final Map<String, Long> byPod = new HashMap<>();
    private final Map<Long, String> byAddress = new HashMap<>();
    private long next = 2;

    /** @throws IllegalArgumentException for a CIDR that is not IPv4 */
    PodAddresses(String cidr) {
        int slash = cidr.indexOf('/');
        int prefix = Integer.parseInt(cidr.substring(slash + 1));
        long address = 0;
        String[] octets = cidr.substring(0, slash).split("\\.");
        if (octets.length != 4 || prefix < 8 || prefix > 30) {
            throw new IllegalArgumentException("not an IPv4 pod CIDR: " + cidr);
        }
        for (String o : octets) {
            address = (address << 8) | Integer.parseInt(o);
        }
        this.size = 1 << (32 - prefix);
        this.network = address & ~((long) size - 1);
    }

    /** The IP of Pod {@code uid}: the one it has, or the next free one; null when none is left. */
    synchronized String assign(String uid) {
        Long held = byPod.get(uid);
        if (held != null) {
            return text(network + held);
        }
        for (int tried = 0; tried < size; tried++) {
            long offset = next;
            next = next + 1 >= size - 1 ? 2 : next + 1;
            if (!byAddress.containsKey(offset)) {
                byPod.put(uid, offset);
                byAddress.put(offset, uid);
                return text(network + offset);
            }
        }
        return null;
    }

    /** Records that Pod {@code uid} has {@code ip} (a Pod started before this server did). */
    synchronized void hold(String uid, String ip) {
        long offset = parse(ip) - network;
        if (offset > 0 && offset < size && !byPod.containsKey(uid)) {
            byPod.put(uid, offset);
            byAddress.put(offset, uid);
        }
    }

    synchronized void release(String uid) {
        Long offset = byPod.remove(uid);
        if (offset != null) {
            byAddress.remove(offset);
        }
    }

    private static long parse(String ip) {
        long address = 0;
        for (String o : ip.split("\\.")) {
            address = (address << 8) | Integer.parseInt(o);
        }
        return address;
    }

    static String text(long address) {
        return ((address >> 24) & 255) + "." + ((address >> 16) & 255) + "." + ((address >> 8) & 255) + "."
                + (address & 255);
    }
}
