package io.kapi.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.client.LocalClient;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;

/**
 * kube-controller-manager's pvc-protection and pv-protection controllers, for standalone mode: the finalizers
 * the StorageObjectInUseProtection plugin adds are removed from a deleted claim once no running pod uses it
 * (a {@code persistentVolumeClaim} or generic ephemeral volume), and from a deleted volume once it is not Bound.
 */
public final class StorageProtectionController extends PassHook {

    static final String PVC_FINALIZER = "kubernetes.io/pvc-protection";
    static final String PV_FINALIZER = "kubernetes.io/pv-protection";
    private static final GroupVersionResource PVCS = new GroupVersionResource("", "v1", "persistentvolumeclaims");
    private static final GroupVersionResource PVS = new GroupVersionResource("", "v1", "persistentvolumes");
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

    private final LocalClient claims;
    private final LocalClient volumes;
    private final ObjectLookup lookup;

    /**
     * @param claims writes claims (as kube's pvc-protection-controller)
     * @param volumes writes volumes (as kube's pv-protection-controller)
     */
    public StorageProtectionController(LocalClient claims, LocalClient volumes, ObjectLookup lookup,
                                       SharedInformers informers) {
        super(informers, List.of(PVCS, PVS, PODS), null);
        this.claims = claims;
        this.volumes = volumes;
        this.lookup = lookup;
    }

    @Override
    public String name() {
        return "start-kapi-storage-protection-controller";
    }

    @Override
    public void syncAll() {
        for (ObjectNode pvc : lookup.list(PVCS, "")) {
            if (deleting(pvc, PVC_FINALIZER) && !usedByPod(pvc)) {
                release(claims, PVCS, pvc, PVC_FINALIZER);
            }
        }
        for (ObjectNode pv : lookup.list(PVS, "")) {
            if (deleting(pv, PV_FINALIZER) && !"Bound".equals(pv.path("status").path("phase").asText(""))) {
                release(volumes, PVS, pv, PV_FINALIZER);
            }
        }
    }

    private static boolean deleting(ObjectNode object, String finalizer) {
        JsonNode meta = object.path("metadata");
        if (!meta.hasNonNull("deletionTimestamp")) {
            return false;
        }
        for (JsonNode f : meta.path("finalizers")) {
            if (finalizer.equals(f.asText())) {
                return true;
            }
        }
        return false;
    }

    private boolean usedByPod(ObjectNode pvc) {
        String namespace = pvc.path("metadata").path("namespace").asText("");
        String name = pvc.path("metadata").path("name").asText("");
        for (ObjectNode pod : lookup.list(PODS, namespace)) {
            String phase = pod.path("status").path("phase").asText("");
            if (phase.equals("Succeeded") || phase.equals("Failed")) {
                continue;
            }
            String podName = pod.path("metadata").path("name").asText("");
            for (JsonNode v : pod.path("spec").path("volumes")) {
                if (name.equals(v.path("persistentVolumeClaim").path("claimName").asText(null))
                        || v.has("ephemeral") && name.equals(podName + "-" + v.path("name").asText(""))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Drops the finalizer with an update at the read resourceVersion; a conflict waits for the next pass. */
    private static void release(LocalClient client, GroupVersionResource resource, ObjectNode object, String finalizer) {
        ObjectNode copy = object.deepCopy();
        ArrayNode kept = copy.with("metadata").putArray("finalizers");
        object.path("metadata").path("finalizers").forEach(f -> {
            if (!finalizer.equals(f.asText())) {
                kept.add(f);
            }
        });
        try {
            client.resource(resource).update(copy);
        } catch (ApiException e) {
            if (e.code() != 409 && e.code() != 404) {
                throw e;
            }
        }
    }
}
