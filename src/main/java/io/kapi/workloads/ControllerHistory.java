package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.informers.Informer;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoJson;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.DeleteOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * kube's {@code pkg/controller/history}: the ControllerRevisions a StatefulSet or DaemonSet keeps of its
 * templates, one per distinct template, numbered by {@code revision} (the highest is the newest), named
 * {@code <owner>-<hash>} and controlled by their owner. A revision's {@code data} is the patch that puts its
 * template back ({@link #patchOf}), which is what {@code kubectl rollout undo} applies.
 *
 * <p>The hash is kube's {@code HashControllerRevision}: FNV-32 (not 32a) of the data's bytes, then of the
 * collision count in decimal, rendered by {@link PodTemplateHash#safeEncode}. kube hashes the bytes Go's
 * {@code json.Marshal} wrote; Kapi hashes the same JSON (keys sorted, Go's escaping, {@link #goJson}), so
 * equal data hash alike on both, but the data differ where Go's structs write fields a JSON tree lacks.
 * When a name is taken by a revision of other data, the owner's {@code status.collisionCount} goes up by
 * one and the name is hashed again ({@link #create}).
 */
final class ControllerHistory {

    static final GroupVersionResource REVISIONS = new GroupVersionResource("apps", "v1", "controllerrevisions");
    /** kube's {@code ControllerRevisionHashLabel}, on each revision: its hash. */
    static final String HASH_LABEL = "controller.kubernetes.io/hash";
    /** kube's {@code ControllerRevisionHashLabelKey}, on each Pod: the revision it was made from. */
    static final String POD_LABEL = "controller-revision-hash";
    private static final int FNV_OFFSET = 0x811c9dc5;
    private static final int FNV_PRIME = 0x01000193;

    /** kube's {@code SortControllerRevisions}: by revision, then age, then name. */
    static final Comparator<JsonNode> ORDER = Comparator.<JsonNode>comparingLong(r -> r.path("revision").asLong())
            .thenComparing(r -> r.path("metadata").path("creationTimestamp").asText(""))
            .thenComparing(r -> r.path("metadata").path("name").asText(""));

    private final ResourceClient revisions;
    private final Informer informer;
    private final ControllerRefs refs;

    /** @param owners the owners' kind, read afresh before adopting an orphan revision */
    ControllerHistory(ResourceClient revisions, Informer informer, ResourceClient owners) {
        this.revisions = revisions;
        this.informer = informer;
        this.refs = new ControllerRefs(owners, revisions);
    }

    /** kube's {@code getPatch}: {@code {"spec":{"template":{...,"$patch":"replace"}}}}. */
    static ObjectNode patchOf(JsonNode owner) {
        ObjectNode patch = Json.object();
        ObjectNode template = Json.object();
        template.put("$patch", "replace");
        owner.path("spec").path("template").properties().forEach(e -> template.set(e.getKey(), e.getValue().deepCopy()));
        patch.putObject("spec").set("template", template);
        return patch;
    }

    /** {@code HashControllerRevision}: of the data, and of {@code probe} when not null. */
    static String hash(JsonNode data, Integer probe) {
        int h = fnv1(FNV_OFFSET, goJson(data).getBytes(StandardCharsets.UTF_8));
        if (probe != null) {
            h = fnv1(h, Integer.toString(probe).getBytes(StandardCharsets.UTF_8));
        }
        return PodTemplateHash.safeEncode(Integer.toUnsignedString(h));
    }

    /** FNV-1 (multiply, then xor), 32 bits, continuing from {@code hash}: Go's {@code fnv.New32}. */
    static int fnv1(int hash, byte[] data) {
        for (byte b : data) {
            hash *= FNV_PRIME;
            hash ^= b & 0xff;
        }
        return hash;
    }

    /** {@code ControllerRevisionName}: the owner's name, cut to 223 characters, a dash and the hash. */
    static String name(String owner, String hash) {
        return (owner.length() > 223 ? owner.substring(0, 223) : owner) + "-" + hash;
    }

    /**
     * {@code NewControllerRevision}: labelled with the template's labels and {@link #HASH_LABEL}, controlled
     * by {@code owner}, named from the hash of {@code data} and {@code collisionCount}.
     */
    static ObjectNode newRevision(ObjectNode owner, JsonNode data, long revision, Integer collisionCount) {
        String hash = hash(data, collisionCount);
        ObjectNode r = Json.object();
        r.put("apiVersion", "apps/v1");
        r.put("kind", "ControllerRevision");
        ObjectNode meta = r.putObject("metadata");
        meta.put("name", name(ObjectMeta.of(owner).name(), hash));
        meta.put("namespace", ObjectMeta.of(owner).namespace());
        ObjectNode labels = meta.putObject("labels");
        owner.path("spec").path("template").path("metadata").path("labels").properties()
                .forEach(e -> labels.set(e.getKey(), e.getValue()));
        labels.put(HASH_LABEL, hash);
        meta.putArray("ownerReferences").add(Pods.controllerRef(owner));
        r.set("data", data);
        r.put("revision", revision);
        return r;
    }

    /**
     * kube's {@code ListControllerRevisions} and {@code ClaimControllerRevisions}: the revisions {@code owner}
     * controls once orphans its selector matches are adopted and those it no longer matches released, oldest
     * first.
     */
    List<ObjectNode> owned(ObjectNode owner, LabelSelector selector) {
        List<ObjectNode> owned = new ArrayList<>(refs.claim(owner, selector, informer.list(ObjectMeta.of(owner).namespace())));
        owned.sort(ORDER);
        return owned;
    }

    /** {@code FindEqualRevisions}: those of {@code revisions} whose data equal {@code needle}'s. */
    static List<ObjectNode> equalTo(List<ObjectNode> revisions, JsonNode needle) {
        return revisions.stream().filter(r -> sameData(r.path("data"), needle.path("data"))).toList();
    }

    /** kube's {@code bytes.Equal} of two revisions' data: the same JSON text (an int 1 and a long 1 alike). */
    static boolean sameData(JsonNode a, JsonNode b) {
        return goJson(a).equals(goJson(b));
    }

    /** {@code nextRevision}: one more than the highest, 1 when there is none. */
    static long nextRevision(List<ObjectNode> revisions) {
        return revisions.isEmpty() ? 1 : revisions.getLast().path("revision").asLong() + 1;
    }

    /**
     * {@code CreateControllerRevision}: creates {@code revision} under the name its hash gives with
     * {@code collisionCount[0]}; a revision of equal data already there is returned as it is, one of other
     * data raises {@code collisionCount[0]} and the name is hashed again.
     */
    ObjectNode create(ObjectNode owner, ObjectNode revision, int[] collisionCount) {
        String namespace = ObjectMeta.of(owner).namespace();
        while (true) {
            ObjectNode clone = revision.deepCopy();
            String name = name(ObjectMeta.of(owner).name(), hash(revision.path("data"), collisionCount[0]));
            clone.with("metadata").put("name", name);
            try {
                return revisions.create(namespace, clone);
            } catch (ApiException e) {
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    throw e;
                }
                ObjectNode exists = revisions.get(namespace, name);
                if (sameData(exists.path("data"), clone.path("data"))) {
                    return exists;
                }
                collisionCount[0]++;
            }
        }
    }

    /** Creates {@code revision} under its own name. @throws ApiException AlreadyExists when the name is taken */
    ObjectNode createAs(ObjectNode owner, ObjectNode revision) {
        return revisions.create(ObjectMeta.of(owner).namespace(), revision);
    }

    /** The revision {@code name} of the owner's namespace, as stored. @throws ApiException NotFound */
    ObjectNode get(ObjectNode owner, String name) {
        return revisions.get(ObjectMeta.of(owner).namespace(), name);
    }

    /** {@code UpdateControllerRevision}: gives an older revision the newest number (a template rolled back to). */
    ObjectNode renumber(ObjectNode revision, long number) {
        if (revision.path("revision").asLong() == number) {
            return revision;
        }
        ObjectNode copy = revision.deepCopy();
        copy.put("revision", number);
        return revisions.update(copy);
    }

    /**
     * kube's {@code truncateHistory}: deletes the oldest revisions beyond {@code limit}, never one of
     * {@code live} (the current and update revisions, and those a Pod still runs).
     */
    void truncate(List<ObjectNode> owned, Set<String> live, int limit) {
        List<ObjectNode> history = owned.stream().filter(r -> !live.contains(ObjectMeta.of(r).name())).toList();
        for (ObjectNode r : history.subList(0, Math.max(0, history.size() - limit))) {
            try {
                revisions.delete(ObjectMeta.of(r).namespace(), ObjectMeta.of(r).name(),
                        new DeleteOptions(ObjectMeta.of(r).uid(), null, false, null, null));
            } catch (ApiException e) {
                if (e.reason() != StatusReason.NOT_FOUND && e.code() != 409) {
                    throw e;
                }
            }
        }
    }

    /** The JSON Go's {@code json.Marshal} writes of a decoded tree ({@link GoJson#marshal}). */
    static String goJson(JsonNode node) {
        return GoJson.marshal(node);
    }
}
