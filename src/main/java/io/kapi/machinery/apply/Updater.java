package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * structured-merge-diff's {@code Updater} for one API version: how an update moves ownership, and
 * how an apply merges, prunes what the applier stopped applying, and detects conflicts.
 *
 * <p>Managers own fields in the version they wrote them in (their entry's {@code apiVersion}). The
 * objects compared are in this updater's version; for a manager of another version both are converted
 * to that version and compared there ({@link OtherVersions}); a manager whose version is no longer
 * served is dropped, as structured-merge-diff drops it on a missing-version error.
 */
final class Updater {

    private final SchemaType type;
    private final String apiVersion;
    private final FieldSet ignored;
    private final OtherVersions versions;

    /**
     * @param ignored fields nobody owns: those the strategy resets (kube's reset fields), e.g. status
     *     on the main resource; an update or apply never takes them and never conflicts on them
     */
    Updater(SchemaType type, String apiVersion, FieldSet ignored, OtherVersions versions) {
        this.type = type;
        this.apiVersion = apiVersion;
        this.ignored = ignored;
        this.versions = versions;
    }

    private Compare.Comparison compare(SchemaType t, ObjectNode oldObj, ObjectNode newObj) {
        Compare.Comparison c = Compare.of(t, oldObj, newObj);
        if (ignored.isEmpty()) {
            return c;
        }
        return new Compare.Comparison(c.added().recursiveDifference(ignored),
                c.removed().recursiveDifference(ignored), c.modified().recursiveDifference(ignored));
    }

    /** The change from {@code live} to {@code next} (this version) as seen in {@code version}; null if it does not convert. */
    private Compare.Comparison compareIn(String version, ObjectNode live, ObjectNode next) {
        ObjectNode l = versions.convert(live, apiVersion, version);
        ObjectNode n = versions.convert(next, apiVersion, version);
        if ((live != null && l == null) || n == null) {
            return null;
        }
        return compare(versions.type(version), l, n);
    }

    /** Apply failed: other managers own fields the apply changes. */
    static final class Conflicts extends Exception {
        private final List<Conflict> conflicts;

        Conflicts(List<Conflict> conflicts) {
            super("conflicts", null, false, false);
            this.conflicts = List.copyOf(conflicts);
        }

        List<Conflict> conflicts() {
            return conflicts;
        }
    }

    /** The result of an apply: the new object, or null when it equals the live one, and the managers. */
    record Applied(ObjectNode object, LinkedHashMap<ManagerKey, ManagedFields.Entry> managers) {
    }

    /**
     * Takes from every manager but {@code workflow} the fields that changed between the objects, each
     * compared in the manager's version (modified or added: a conflict unless {@code force}; removed: gone).
     */
    private LinkedHashMap<ManagerKey, ManagedFields.Entry> update(ObjectNode live, ObjectNode next,
            Compare.Comparison compare, LinkedHashMap<ManagerKey, ManagedFields.Entry> managers, ManagerKey workflow,
            boolean force) throws Conflicts {
        Map<String, Compare.Comparison> byVersion = new HashMap<>();
        byVersion.put(apiVersion, compare);
        Map<ManagerKey, FieldSet> conflicts = new LinkedHashMap<>();
        Map<ManagerKey, FieldSet> removed = new HashMap<>();
        Set<ManagerKey> unserved = new HashSet<>();
        for (Map.Entry<ManagerKey, ManagedFields.Entry> e : managers.entrySet()) {
            if (e.getKey().equals(workflow)) {
                continue;
            }
            String version = e.getValue().apiVersion();
            if (!byVersion.containsKey(version)) {
                byVersion.put(version, compareIn(version, live, next));
            }
            Compare.Comparison c = byVersion.get(version);
            if (c == null) {
                unserved.add(e.getKey());
                continue;
            }
            FieldSet conflict = e.getValue().set().intersection(c.addedOrModified());
            if (!conflict.isEmpty()) {
                conflicts.put(e.getKey(), conflict);
            }
            removed.put(e.getKey(), c.removed());
        }
        if (!force && !conflicts.isEmpty()) {
            List<Conflict> list = new ArrayList<>();
            conflicts.entrySet().stream()
                    .sorted(Comparator.comparing((Map.Entry<ManagerKey, FieldSet> e) -> e.getKey().identifier()))
                    .forEach(e -> e.getValue().forEachPath(p -> list.add(new Conflict(e.getKey(), p))));
            throw new Conflicts(list);
        }
        LinkedHashMap<ManagerKey, ManagedFields.Entry> out = new LinkedHashMap<>();
        for (Map.Entry<ManagerKey, ManagedFields.Entry> e : managers.entrySet()) {
            if (unserved.contains(e.getKey())) {
                continue;
            }
            ManagedFields.Entry entry = e.getValue();
            FieldSet set = entry.set();
            if (!e.getKey().equals(workflow)) {
                set = set.difference(conflicts.getOrDefault(e.getKey(), FieldSet.EMPTY))
                        .difference(removed.getOrDefault(e.getKey(), FieldSet.EMPTY));
            }
            if (!set.isEmpty()) {
                out.put(e.getKey(), new ManagedFields.Entry(set, entry.apiVersion(), entry.time()));
            }
        }
        return out;
    }

    /**
     * An update (create, replace, non-apply patch) by {@code manager}: it takes every field it changed
     * from the others and adds them to its own set, minus what it removed.
     */
    LinkedHashMap<ManagerKey, ManagedFields.Entry> update(ObjectNode live, ObjectNode newObj,
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managers, ManagerKey manager) {
        Compare.Comparison compare = compare(type, live, newObj);
        LinkedHashMap<ManagerKey, ManagedFields.Entry> out;
        try {
            out = update(live, newObj, compare, managers, manager, true);
        } catch (Conflicts e) {
            throw new AssertionError("forced update cannot conflict", e);
        }
        ManagedFields.Entry previous = out.get(manager);
        FieldSet set = previous == null ? FieldSet.EMPTY : previous.set();
        set = set.union(compare.modified()).union(compare.added()).difference(compare.removed())
                .recursiveDifference(ignored);
        if (set.isEmpty()) {
            out.remove(manager);
        } else {
            out.put(manager, new ManagedFields.Entry(set, apiVersion, previous == null ? null : previous.time()));
        }
        return out;
    }

    /**
     * An apply of {@code config} (whose field set is {@code configSet}) by {@code manager}.
     *
     * @throws Conflicts when, without {@code force}, another manager owns a field the apply changes
     */
    Applied apply(ObjectNode live, ObjectNode config, FieldSet configSet,
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managers, ManagerKey manager, boolean force)
            throws Conflicts {
        ObjectNode merged = Merge.of(type, live, config);
        configSet = configSet.recursiveDifference(ignored);
        ManagedFields.Entry last = managers.get(manager);
        LinkedHashMap<ManagerKey, ManagedFields.Entry> next = new LinkedHashMap<>(managers);
        next.put(manager, new ManagedFields.Entry(configSet, apiVersion, last == null ? null : last.time()));
        merged = prune(merged, next, manager, last);
        Compare.Comparison compare = compare(type, live, merged);
        LinkedHashMap<ManagerKey, ManagedFields.Entry> out = update(live, merged, compare, next, manager, force);
        boolean unchanged = live != null && Values.equal(live, merged);
        return new Applied(unchanged ? null : merged, out);
    }

    /**
     * Removes what the applier applied last time and no longer does, unless some manager (the
     * applier's new set included) owns it; fields nobody owns that it never applied stay. The pruning
     * happens in the version of the applier's last apply, each manager's fields are added back in
     * their own version (structured-merge-diff's {@code prune}).
     */
    private ObjectNode prune(ObjectNode merged, Map<ManagerKey, ManagedFields.Entry> managers, ManagerKey applier,
            ManagedFields.Entry last) {
        if (last == null || last.set().isEmpty()) {
            return merged;
        }
        String version = last.apiVersion();
        if (version.equals(apiVersion) && last.set().isSubsetOf(managers.get(applier).set())) {
            // still applying everything it applied: each such path and its parents are owned now
            return merged;
        }
        ObjectNode inLast = versions.convert(merged, apiVersion, version);
        if (inLast == null) {
            return merged;
        }
        SchemaType lastType = typeOf(version);
        FieldSet lastSet = last.set().ensureNamedFieldsAreMembers(lastType);
        Pruned p = new Pruned(version, inLast, RemoveItems.of(lastType, inLast, lastSet));
        p = addBackOwned(p, managers, version);
        if (p == null) {
            return merged;
        }
        ObjectNode pruned = versions.convert(p.pruned(), p.version(), version);
        if (pruned == null) {
            return merged;
        }
        FieldSet prunedSet = ToFieldSet.of(lastType, pruned).ensureNamedFieldsAreMembers(lastType);
        FieldSet mergedSet = ToFieldSet.of(lastType, inLast).ensureNamedFieldsAreMembers(lastType);
        ObjectNode result = RemoveItems.of(lastType, inLast, mergedSet.difference(prunedSet).intersection(lastSet));
        ObjectNode back = versions.convert(result, version, apiVersion);
        return back == null ? merged : back;
    }

    /** A merged object and what is left of it after pruning, both in {@code version}. */
    private record Pruned(String version, ObjectNode merged, ObjectNode pruned) {
    }

    /**
     * structured-merge-diff's {@code addBackOwnedItems}: per version (the pruned one first), what any
     * manager of that version owns comes back. Null when an object does not convert.
     */
    private Pruned addBackOwned(Pruned p, Map<ManagerKey, ManagedFields.Entry> managers, String prunedVersion) {
        Map<String, FieldSet> owned = new LinkedHashMap<>();
        owned.put(prunedVersion, FieldSet.EMPTY);
        for (ManagedFields.Entry e : managers.values()) {
            owned.merge(e.apiVersion(), e.set(), FieldSet::union);
        }
        for (Map.Entry<String, FieldSet> e : owned.entrySet()) {
            String version = e.getKey();
            ObjectNode merged = versions.convert(p.merged(), p.version(), version);
            ObjectNode pruned = versions.convert(p.pruned(), p.version(), version);
            if (merged == null || pruned == null) {
                return null;
            }
            SchemaType t = typeOf(version);
            FieldSet mergedSet = ToFieldSet.of(t, merged).ensureNamedFieldsAreMembers(t);
            FieldSet prunedSet = ToFieldSet.of(t, pruned).ensureNamedFieldsAreMembers(t);
            FieldSet keep = prunedSet.union(e.getValue().ensureNamedFieldsAreMembers(t));
            p = new Pruned(version, merged, RemoveItems.of(t, merged, mergedSet.difference(keep)));
        }
        return p;
    }

    private SchemaType typeOf(String version) {
        return version.equals(apiVersion) ? type : versions.type(version);
    }
}
