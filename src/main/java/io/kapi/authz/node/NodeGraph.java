package io.kapi.authz.node;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Which objects each node can reach, as kube's node authorizer graph: {@code pod -> node};
 * {@code secret, configmap, pvc, serviceaccount, resourceclaim -> pod}; {@code pv -> pvc};
 * {@code secret -> pv}; {@code volumeattachment -> node}; {@code resourceslice -> node}. Fed by the
 * mirrors' change listeners (the graph populator), asked by the authorizer. Instead of walking
 * edges, it keeps per object the number of bound pods on each node that refer to it, so a question
 * is a few map lookups whatever the cluster's size. Thread-safe: one writer lock, shared readers.
 */
final class NodeGraph {

    /** The kinds of object a node may be related to (kube's vertex types). */
    enum Kind { POD, SECRET, CONFIGMAP, PVC, PV, SERVICEACCOUNT, RESOURCECLAIM, VOLUMEATTACHMENT, RESOURCESLICE }

    private record Ref(Kind kind, String namespace, String name) {
    }

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    /** object referred to by bound pods -> node -> how many of its pods refer to it. */
    private final Map<Ref, Map<String, Integer>> nodesByObject = new HashMap<>();
    private final Map<String, VolumeReferences> volumes = new HashMap<>();
    /** secret ns/name -> volumes that name it. */
    private final Map<String, Set<String>> volumesBySecret = new HashMap<>();
    private final Map<String, String> attachments = new HashMap<>();
    private final Map<String, String> slices = new HashMap<>();

    /** A pod changed: {@code before}/{@code after} null for an addition/removal. */
    void pod(String namespace, String name, PodReferences before, PodReferences after) {
        lock.writeLock().lock();
        try {
            if (before != null) {
                count(namespace, name, before, -1);
            }
            if (after != null) {
                count(namespace, name, after, +1);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void count(String ns, String name, PodReferences pod, int delta) {
        if (pod.nodeName().isEmpty()) {
            return;
        }
        String node = pod.nodeName();
        count(new Ref(Kind.POD, ns, name), node, delta);
        if (!pod.serviceAccount().isEmpty()) {
            count(new Ref(Kind.SERVICEACCOUNT, ns, pod.serviceAccount()), node, delta);
        }
        pod.secrets().forEach(s -> count(new Ref(Kind.SECRET, ns, s), node, delta));
        pod.configMaps().forEach(c -> count(new Ref(Kind.CONFIGMAP, ns, c), node, delta));
        pod.claims().forEach(c -> count(new Ref(Kind.PVC, ns, c), node, delta));
        pod.resourceClaims().forEach(c -> count(new Ref(Kind.RESOURCECLAIM, ns, c), node, delta));
    }

    private void count(Ref ref, String node, int delta) {
        Map<String, Integer> nodes = nodesByObject.computeIfAbsent(ref, r -> new HashMap<>(2));
        nodes.merge(node, delta, (a, b) -> a + b == 0 ? null : a + b);
        if (nodes.isEmpty()) {
            nodesByObject.remove(ref);
        }
    }

    /** A PersistentVolume changed ({@code after} null: removed). */
    void volume(String name, VolumeReferences after) {
        lock.writeLock().lock();
        try {
            VolumeReferences before = after == null ? volumes.remove(name) : volumes.put(name, after);
            if (before != null) {
                before.secrets().forEach(s -> {
                    Set<String> names = volumesBySecret.get(s);
                    if (names != null && names.remove(name) && names.isEmpty()) {
                        volumesBySecret.remove(s);
                    }
                });
            }
            if (after != null) {
                after.secrets().forEach(s -> volumesBySecret.computeIfAbsent(s, k -> new HashSet<>()).add(name));
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** A VolumeAttachment changed; {@code node} "" or null: attached to no node (or removed). */
    void attachment(String name, String node) {
        put(attachments, name, node);
    }

    /** A ResourceSlice changed; {@code node} "" or null: no node's (or removed). */
    void slice(String name, String node) {
        put(slices, name, node);
    }

    private void put(Map<String, String> map, String name, String node) {
        lock.writeLock().lock();
        try {
            if (node == null || node.isEmpty()) {
                map.remove(name);
            } else {
                map.put(name, node);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Whether a path leads from object {@code kind namespace/name} to node {@code node}. */
    boolean reaches(String node, Kind kind, String namespace, String name) {
        lock.readLock().lock();
        try {
            return switch (kind) {
                case POD, CONFIGMAP, PVC, SERVICEACCOUNT, RESOURCECLAIM -> referred(node, kind, namespace, name);
                case SECRET -> referred(node, kind, namespace, name) || viaVolume(node, namespace + "/" + name);
                case PV -> volumeReaches(node, volumes.get(name));
                case VOLUMEATTACHMENT -> node.equals(attachments.get(name));
                case RESOURCESLICE -> node.equals(slices.get(name));
            };
        } finally {
            lock.readLock().unlock();
        }
    }

    private boolean referred(String node, Kind kind, String namespace, String name) {
        Map<String, Integer> nodes = nodesByObject.get(new Ref(kind, namespace, name));
        return nodes != null && nodes.containsKey(node);
    }

    private boolean viaVolume(String node, String secret) {
        for (String pv : volumesBySecret.getOrDefault(secret, Set.of())) {
            if (volumeReaches(node, volumes.get(pv))) {
                return true;
            }
        }
        return false;
    }

    private boolean volumeReaches(String node, VolumeReferences pv) {
        return pv != null && !pv.claimName().isEmpty()
                && referred(node, Kind.PVC, pv.claimNamespace(), pv.claimName());
    }
}
