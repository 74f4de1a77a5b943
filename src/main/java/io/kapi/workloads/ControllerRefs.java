package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code ControllerRefManager} ({@code pkg/controller/controller_ref_manager.go}): which of a
 * namespace's objects of one kind an owner controls. For each candidate, {@link #claim}
 * <ul>
 * <li>keeps one the owner controls and still selects (even while the owner is being deleted: keeping takes
 * no action);</li>
 * <li>releases one the owner controls but no longer selects (not while the owner is being deleted);</li>
 * <li>adopts an orphan it selects, unless the orphan or the owner is being deleted; before its first
 * adoption it reads the owner afresh from the API (kube's {@code RecheckDeletionTimestamp}), so an owner
 * deleted, or deleted and made again, after the informer's copy was taken adopts nothing;</li>
 * <li>leaves alone one another controller controls.</li>
 * </ul>
 * Adoption and release are merge patches of {@code metadata.ownerReferences} on the object's uid and
 * resourceVersion: an object changed, replaced or gone meanwhile is skipped (the informer brings the change
 * and the next sync decides again). Any other failure is thrown once every candidate has been tried, as
 * kube's aggregate error fails the sync.
 */
final class ControllerRefs {

    private final ResourceClient owners;
    private final ResourceClient owned;
    private final String finalizer;

    /**
     * @param owners the owner's kind, to read the owner afresh before adopting
     * @param owned the claimed kind, to patch owner references
     */
    ControllerRefs(ResourceClient owners, ResourceClient owned) {
        this(owners, owned, null);
    }

    private ControllerRefs(ResourceClient owners, ResourceClient owned, String finalizer) {
        this.owners = owners;
        this.owned = owned;
        this.finalizer = finalizer;
    }

    /**
     * The same claims, with {@code finalizer} added to each object adopted (kube's
     * {@code NewPodControllerRefManager(..., finalizers)}: the Job controller's
     * {@code batch.kubernetes.io/job-tracking}).
     */
    ControllerRefs adoptingWith(String finalizer) {
        return new ControllerRefs(owners, owned, finalizer);
    }

    /**
     * The candidates {@code owner} controls once claimed: those kept, then those adopted (as the API returned
     * them). {@code owner} needs its apiVersion and kind (they go into the controller reference).
     */
    List<ObjectNode> claim(ObjectNode owner, LabelSelector selector, List<ObjectNode> candidates) {
        String uid = ObjectMeta.of(owner).uid();
        boolean ownerDeleting = Pods.terminating(owner);
        Boolean canAdopt = null;
        ApiException failure = null;
        List<ObjectNode> claimed = new ArrayList<>();
        for (ObjectNode object : candidates) {
            Optional<JsonNode> ref = Pods.controllerOf(object);
            boolean matches = selector.matches(object.path("metadata").path("labels"));
            try {
                if (ref.isPresent()) {
                    if (!ref.get().path("uid").asText().equals(uid)) {
                        continue;
                    }
                    if (matches) {
                        claimed.add(object);
                    } else if (!ownerDeleting) {
                        patchOwners(object, without(object, uid), null);
                    }
                    continue;
                }
                if (!matches || ownerDeleting || Pods.terminating(object)) {
                    continue;
                }
                if (canAdopt == null) {
                    canAdopt = canAdopt(owner);
                }
                if (canAdopt) {
                    ArrayNode refs = without(object, "");
                    refs.add(Pods.controllerRef(owner));
                    patchOwners(object, refs, finalizer).ifPresent(claimed::add);
                }
            } catch (ApiException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return claimed;
    }

    /** The owner as now stored is the same object (uid) and not being deleted. */
    private boolean canAdopt(ObjectNode owner) {
        ObjectMeta meta = ObjectMeta.of(owner);
        return owners.find(meta.namespace(), meta.name())
                .filter(fresh -> ObjectMeta.of(fresh).uid().equals(meta.uid()) && !Pods.terminating(fresh))
                .isPresent();
    }

    private static ArrayNode without(JsonNode object, String uid) {
        ArrayNode refs = Json.NODES.arrayNode();
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            if (!ref.path("uid").asText().equals(uid)) {
                refs.add(ref.deepCopy());
            }
        }
        return refs;
    }

    /** The object as patched, or empty when it changed or went meanwhile. */
    private Optional<ObjectNode> patchOwners(ObjectNode object, ArrayNode refs, String finalizer) {
        ObjectMeta meta = ObjectMeta.of(object);
        ObjectNode patch = Json.object();
        ObjectNode m = patch.putObject("metadata");
        m.put("uid", meta.uid());
        m.put("resourceVersion", meta.resourceVersion());
        if (refs.isEmpty()) {
            m.putNull("ownerReferences");
        } else {
            m.set("ownerReferences", refs);
        }
        if (finalizer != null) {
            ArrayNode finalizers = m.putArray("finalizers");
            boolean present = false;
            for (JsonNode f : object.path("metadata").path("finalizers")) {
                finalizers.add(f.asText());
                present |= f.asText().equals(finalizer);
            }
            if (!present) {
                finalizers.add(finalizer);
            }
        }
        try {
            return Optional.of(owned.mergePatch(meta.namespace(), meta.name(), patch));
        } catch (ApiException e) {
            if (e.code() == 404 || e.code() == 409 || e.code() == 422) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
