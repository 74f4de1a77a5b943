package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.Lazy;
import io.kapi.machinery.ObjectMeta;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Field management of one kind, as kube-apiserver's default field manager does it: tracks in
 * {@code metadata.managedFields} which manager owns which field, and implements server-side apply.
 * Thread-safe and stateless between calls; obtain one from {@link FieldManagers}.
 *
 * <p>kube's chain of managers, outermost first, and where each lives here: version check
 * ({@link #apply}); last-applied annotation update and conflict forgiveness ({@link LastApplied});
 * no tracking on updates of objects that have none, and "before-first-apply" on the first apply
 * ({@link #recordUpdate}, {@code applyTracked}); at most 10 update entries ({@code capUpdateManagers});
 * manager identifiers ({@link ManagerKey}); entry times and merging of a manager's successive
 * updates ({@code trackUpdate}); stripping of identity metadata ({@code strip}); and the structured
 * merge itself ({@link Updater}).
 *
 * <p>Objects are in this manager's version, and so are the entries it writes ({@code apiVersion});
 * entries of the kind's other served versions keep theirs, and their fields are compared in it.
 */
public final class FieldManager {

    private static final System.Logger LOG = System.getLogger(FieldManager.class.getName());

    static final String BEFORE_FIRST_APPLY = "before-first-apply";
    static final String ANCIENT_CHANGES = "ancient-changes";
    static final int MAX_UPDATE_MANAGERS = 10;
    private static final ManagerKey CURRENT_OPERATION = new ManagerKey("current-operation",
            ManagerKey.Operation.UPDATE, "", "");
    /** Paths no manager owns: kube's {@code stripMetaManager} set. */
    private static final FieldSet STRIPPED = strippedPaths();

    private final GroupVersionKind gvk;
    private final SchemaType type;
    private final Updater updater;

    private final FieldSet resetFields;
    private final OtherVersions versions;
    /** This manager resetting status, and resetting spec: see {@link #forSubresource}. */
    private final Lazy<FieldManager> mainResource = Lazy.of(() -> resetting(List.of(List.of("status"))));
    private final Lazy<FieldManager> statusSubresource = Lazy.of(() -> resetting(List.of(List.of("spec"))));

    FieldManager(GroupVersionKind gvk, SchemaType type, FieldSet resetFields, OtherVersions versions) {
        this.gvk = gvk;
        this.type = type;
        this.resetFields = resetFields;
        this.versions = versions;
        this.updater = new Updater(type, gvk.apiVersion(), resetFields, versions);
    }

    /**
     * This manager with fields the strategy resets: nobody owns them, and changes to them neither
     * move ownership nor conflict (kube's {@code GetResetFields}). E.g. {@code List.of(List.of("status"))}
     * for the main resource of a kind with a status subresource, {@code List.of(List.of("spec"))} for
     * its status subresource. Build one per (kind, subresource) once and keep it.
     *
     * @param paths field paths, each a list of field names from the root
     */
    public FieldManager resetting(java.util.List<java.util.List<String>> paths) {
        FieldSet.Builder b = new FieldSet.Builder();
        for (java.util.List<String> path : paths) {
            b.insert(path.stream().<PathElement>map(PathElement.Field::new).toList());
        }
        return new FieldManager(gvk, type, resetFields.union(b.build()), versions);
    }

    /**
     * This manager as writes to {@code subresource} use it, apply and update alike, with the fields the
     * strategy there resets (kube's {@code GetResetFields}): status on the main resource of a kind with a
     * status subresource, spec on the status subresource; so that neither owns, nor conflicts on, the
     * other's fields. Made once per manager.
     *
     * @param subresource "status", or "" / null for the main resource (others reset nothing here)
     * @param hasStatus whether the kind has a status subresource
     */
    public FieldManager forSubresource(String subresource, boolean hasStatus) {
        if ("status".equals(subresource)) {
            return statusSubresource.get();
        }
        return hasStatus && (subresource == null || subresource.isEmpty()) ? mainResource.get() : this;
    }

    public GroupVersionKind kind() {
        return gvk;
    }

    SchemaType type() {
        return type;
    }

    /**
     * {@code configuration} merged into {@code live} by this kind's structure, as a mutating admission
     * policy's apply configuration is: no ownership is recorded, and a configuration that names a field
     * the schema lacks, or sets an atomic list, map or struct, is refused ({@link ConfigurationMerge}).
     *
     * @throws IllegalArgumentException with kube's wording of why
     */
    public ObjectNode mergeConfiguration(ObjectNode live, ObjectNode configuration) {
        return ConfigurationMerge.merge(type, live, configuration);
    }

    /**
     * Records a create, update or non-apply patch: the fields that differ between {@code oldObj} and
     * {@code newObj} become {@code manager}'s (operation Update) and leave the other managers. Call it
     * after decoding and defaulting the new object, before admission and the strategy.
     *
     * <p>The managedFields of {@code newObj} are used when it carries valid ones (clients may edit
     * them); an empty list, or a list of one empty entry, resets them; absent or invalid ones fall
     * back to the old object's. On a subresource the old object's always count. An update of an
     * object without managedFields keeps it without (kube tracks from create, or from the first
     * apply). Never fails: on an internal error the object is returned without managedFields.
     *
     * @param oldObj the stored object, or null on create
     * @param newObj the object to store; its {@code metadata.managedFields} is replaced
     * @param manager the fieldManager option, or the default {@link FieldManagers#managerOrUserAgent} gives
     * @param subresource e.g. {@code status}, or "" / null for the main resource
     * @return {@code newObj}
     */
    public ObjectNode recordUpdate(ObjectNode oldObj, ObjectNode newObj, String manager, String subresource,
            Instant now) {
        String sub = subresource == null ? "" : subresource;
        try {
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managed = decodeLiveOrNew(oldObj, newObj, sub);
            ObjectNode live = oldObj == null ? null : withoutManagedFields(oldObj);
            ObjectMeta.of(newObj).node().remove("managedFields");
            if (managed.isEmpty() && live != null && !ObjectMeta.of(live).uid().isEmpty()) {
                return newObj; // skipNonApplied: not tracked until the first apply
            }
            managed = trackUpdate(live, newObj, managed, ManagerKey.updater(manager, gvk.apiVersion(), sub), now);
            managed = capUpdateManagers(managed);
            setManagedFields(newObj, managed);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot track managed fields of {0}: {1}", gvk, e.toString());
            ObjectMeta.of(newObj).node().remove("managedFields");
        }
        return newObj;
    }

    /**
     * Server-side apply of {@code applied} (a decoded {@code application/apply-patch+yaml} body) by
     * {@code manager}, onto {@code live} or, when null, onto an empty object (the handler then creates).
     *
     * @param subresource e.g. {@code status}, or "" / null
     * @throws ApiException 400 when {@code applied} is not of this kind and version or carries
     *     managedFields; 409 on conflicts without {@code force}; 500 when it does not fit the schema
     */
    public ApplyResult apply(ObjectNode live, ObjectNode applied, String manager, String subresource, boolean force,
            Instant now) {
        String sub = subresource == null ? "" : subresource;
        String apiVersion = applied.path("apiVersion").asText("");
        String kind = applied.path("kind").asText("");
        if (!apiVersion.equals(gvk.apiVersion()) || !kind.equals(gvk.kind())) {
            throw ApplyErrors.invalidObjectType(apiVersion, kind);
        }
        LinkedHashMap<ManagerKey, ManagedFields.Entry> managed;
        try {
            managed = ManagedFields.decode(live == null ? null : live.path("metadata").get("managedFields"));
        } catch (IllegalArgumentException e) {
            throw ApplyErrors.internal("failed to decode managed fields: " + e.getMessage());
        }
        JsonNode appliedManaged = applied.path("metadata").get("managedFields");
        if (appliedManaged != null && !appliedManaged.isNull()) {
            throw ApplyErrors.managedFieldsMustBeNil();
        }
        FieldSet configSet;
        try {
            configSet = ToFieldSet.ofApplied(type, applied);
        } catch (ToFieldSet.TypedErrors e) {
            throw ApplyErrors.typedPatch(apiVersion, kind, e.getMessage());
        }
        ObjectNode base = live == null ? null : withoutManagedFields(live);
        Updater.Applied result = applyForgivingLastApplied(base, applied, configSet, managed,
                ManagerKey.applier(manager, sub), manager, force, now);
        ObjectNode object = result.object() == null ? (base == null ? Json.object() : base.deepCopy())
                : result.object();
        if (manager.equals(LastApplied.KUBECTL) && LastApplied.of(object) != null) {
            LastApplied.update(object, applied);
        }
        boolean changed = base == null || !Values.equal(base, object);
        setManagedFields(object, result.managers());
        return new ApplyResult(object, live == null, changed);
    }

    private Updater.Applied applyForgivingLastApplied(ObjectNode live, ObjectNode applied, FieldSet configSet,
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managed, ManagerKey key, String manager, boolean force,
            Instant now) {
        try {
            return applyTracked(live, applied, configSet, managed, key, force, now);
        } catch (Updater.Conflicts c) {
            if (!manager.equals(LastApplied.KUBECTL)) {
                throw ApplyErrors.conflicts(c.conflicts());
            }
            FieldSet allowed = live == null ? FieldSet.EMPTY : LastApplied.allowedConflicts(type, live);
            List<Conflict> remaining = c.conflicts().stream().filter(x -> !allowed.has(x.path())).toList();
            if (!remaining.isEmpty()) {
                throw ApplyErrors.conflicts(remaining);
            }
            try {
                return applyTracked(live, applied, configSet, managed, key, true, now);
            } catch (Updater.Conflicts impossible) {
                throw new AssertionError("forced apply cannot conflict", impossible);
            }
        }
    }

    /** skipNonApplied, capManagers, managedFieldsUpdater and stripMeta around the structured apply. */
    private Updater.Applied applyTracked(ObjectNode live, ObjectNode applied, FieldSet configSet,
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managed, ManagerKey key, boolean force, Instant now)
            throws Updater.Conflicts {
        if (managed.isEmpty() && live != null) {
            managed = trackUpdate(null, live, managed,
                    ManagerKey.updater(BEFORE_FIRST_APPLY, gvk.apiVersion(), ""), now);
            managed = capUpdateManagers(managed);
        }
        Updater.Applied result = updater.apply(live, applied, configSet, managed, key, force);
        LinkedHashMap<ManagerKey, ManagedFields.Entry> managers = strip(result.managers(), key);
        ManagedFields.Entry mine = managers.get(key);
        if (mine != null) {
            String time = result.object() != null ? ObjectMeta.format(now) : previousTime(managed, key);
            ManagedFields.Entry previous = managed.get(key);
            FieldSet set = previous != null && previous.set().equals(mine.set())
                    ? previous.set() // unchanged: the decoded set writes back its bytes
                    : mine.set();
            managers.put(key, new ManagedFields.Entry(set, mine.apiVersion(), time));
        }
        return new Updater.Applied(result.object(), capUpdateManagers(managers));
    }

    private static String previousTime(Map<ManagerKey, ManagedFields.Entry> managed, ManagerKey key) {
        ManagedFields.Entry e = managed.get(key);
        return e == null ? null : e.time();
    }

    /** kube's managedFieldsUpdater: the update's own fields, merged into the manager's entry. */
    private LinkedHashMap<ManagerKey, ManagedFields.Entry> trackUpdate(ObjectNode live, ObjectNode newObj,
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managed, ManagerKey key, Instant now) {
        LinkedHashMap<ManagerKey, ManagedFields.Entry> out = updater.update(live, newObj, managed, CURRENT_OPERATION);
        out = strip(out, CURRENT_OPERATION);
        ManagedFields.Entry current = out.remove(CURRENT_OPERATION);
        if (current != null) {
            ManagedFields.Entry previous = out.get(key);
            FieldSet set = previous == null ? current.set() : current.set().union(previous.set());
            out.put(key, new ManagedFields.Entry(set, gvk.apiVersion(), ObjectMeta.format(now)));
        }
        return out;
    }

    /** kube's stripMetaManager: identity metadata belongs to nobody; an entry left empty goes. */
    private static LinkedHashMap<ManagerKey, ManagedFields.Entry> strip(
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managers, ManagerKey key) {
        ManagedFields.Entry e = managers.get(key);
        if (e != null) {
            FieldSet set = e.set().difference(STRIPPED);
            if (set.isEmpty()) {
                managers.remove(key);
            } else {
                managers.put(key, new ManagedFields.Entry(set, e.apiVersion(), e.time()));
            }
        }
        return managers;
    }

    /** kube's capManagersManager: the oldest update entries merge into "ancient-changes" per version. */
    static LinkedHashMap<ManagerKey, ManagedFields.Entry> capUpdateManagers(
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managed) {
        List<ManagerKey> updaters = new ArrayList<>();
        managed.keySet().stream().filter(k -> !k.applied()).forEach(updaters::add);
        if (updaters.size() <= MAX_UPDATE_MANAGERS) {
            return managed;
        }
        updaters.sort(Comparator.comparingLong((ManagerKey k) -> ManagedFields.epochSeconds(managed.get(k).time()))
                .thenComparing(ManagerKey::identifier));
        Map<String, ManagerKey> firstOfVersion = new HashMap<>();
        int length = updaters.size();
        for (int i = 0; i < updaters.size() && length > MAX_UPDATE_MANAGERS; i++) {
            ManagerKey m = updaters.get(i);
            ManagedFields.Entry vs = managed.get(m);
            String version = vs.apiVersion();
            ManagerKey bucket = ManagerKey.updater(ANCIENT_CHANGES, version, "");
            ManagerKey first = firstOfVersion.get(version);
            if (first == null) {
                firstOfVersion.put(version, m);
                continue;
            }
            if (!managed.containsKey(bucket)) {
                managed.put(bucket, managed.remove(first));
            }
            managed.put(bucket, new ManagedFields.Entry(vs.set().union(managed.get(bucket).set()), version,
                    vs.time()));
            managed.remove(m);
            length--;
        }
        return managed;
    }

    private static LinkedHashMap<ManagerKey, ManagedFields.Entry> decodeLiveOrNew(ObjectNode oldObj,
            ObjectNode newObj, String subresource) {
        JsonNode oldManaged = oldObj == null ? null : oldObj.path("metadata").get("managedFields");
        if (!subresource.isEmpty()) {
            return decodeOrEmpty(oldManaged);
        }
        JsonNode newManaged = newObj.path("metadata").get("managedFields");
        if (ManagedFields.isReset(newManaged)) {
            return new LinkedHashMap<>();
        }
        try {
            LinkedHashMap<ManagerKey, ManagedFields.Entry> fromNew = ManagedFields.decode(newManaged);
            if (!fromNew.isEmpty()) {
                return fromNew;
            }
        } catch (IllegalArgumentException e) {
            LOG.log(Level.DEBUG, "ignoring invalid managedFields in request: {0}", e.getMessage());
        }
        return decodeOrEmpty(oldManaged);
    }

    private static LinkedHashMap<ManagerKey, ManagedFields.Entry> decodeOrEmpty(JsonNode managedFields) {
        try {
            return ManagedFields.decode(managedFields);
        } catch (IllegalArgumentException e) {
            return new LinkedHashMap<>();
        }
    }

    /** A read-only view of {@code obj} without managedFields: only the root and metadata are new nodes. */
    private static ObjectNode withoutManagedFields(ObjectNode obj) {
        if (!(obj.get("metadata") instanceof ObjectNode meta) || !meta.has("managedFields")) {
            return obj;
        }
        ObjectNode view = obj.objectNode();
        view.setAll(obj);
        ObjectNode metaView = obj.objectNode();
        metaView.setAll(meta);
        metaView.remove("managedFields");
        view.set("metadata", metaView);
        return view;
    }

    private static void setManagedFields(ObjectNode obj, Map<ManagerKey, ManagedFields.Entry> managed) {
        ArrayNode encoded = ManagedFields.encode(managed);
        ObjectNode meta = ObjectMeta.of(obj).node();
        if (encoded == null) {
            meta.remove("managedFields");
        } else {
            meta.set("managedFields", encoded);
        }
    }

    private static FieldSet strippedPaths() {
        FieldSet.Builder b = new FieldSet.Builder();
        b.member(new PathElement.Field("apiVersion"));
        b.member(new PathElement.Field("kind"));
        b.member(new PathElement.Field("metadata"));
        FieldSet.Builder meta = b.child(new PathElement.Field("metadata"));
        for (String f : List.of("name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName",
                "generation", "managedFields", "resourceVersion")) {
            meta.member(new PathElement.Field(f));
        }
        return b.build();
    }
}
