package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * structured-merge-diff's {@code Updater} for one API version: how an update moves ownership, and
 * how an apply merges, prunes what the applier stopped applying, and detects conflicts.
 */
final class Updater {

    private final SchemaType type;
    private final String apiVersion;
    private final FieldSet ignored;

    /**
     * @param ignored fields nobody owns: those the strategy resets (kube's reset fields), e.g. status
     *     on the main resource; an update or apply never takes them and never conflicts on them
     */
    Updater(SchemaType type, String apiVersion, FieldSet ignored) {
        this.type = type;
        this.apiVersion = apiVersion;
        this.ignored = ignored;
    }

    private Compare.Comparison compare(ObjectNode oldObj, ObjectNode newObj) {
        Compare.Comparison c = Compare.of(type, oldObj, newObj);
        if (ignored.isEmpty()) {
            return c;
        }
        return new Compare.Comparison(c.added().recursiveDifference(ignored),
                c.removed().recursiveDifference(ignored), c.modified().recursiveDifference(ignored));
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
     * Takes from every manager but {@code workflow} the fields that changed between the objects
     * (modified or added: a conflict unless {@code force}; removed: gone).
     */
    private LinkedHashMap<ManagerKey, ManagedFields.Entry> update(Compare.Comparison compare,
            LinkedHashMap<ManagerKey, ManagedFields.Entry> managers, ManagerKey workflow, boolean force)
            throws Conflicts {
        FieldSet changed = compare.addedOrModified();
        Map<ManagerKey, FieldSet> conflicts = new LinkedHashMap<>();
        for (Map.Entry<ManagerKey, ManagedFields.Entry> e : managers.entrySet()) {
            if (e.getKey().equals(workflow)) {
                continue;
            }
            FieldSet c = e.getValue().set().intersection(changed);
            if (!c.isEmpty()) {
                conflicts.put(e.getKey(), c);
            }
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
            ManagedFields.Entry entry = e.getValue();
            FieldSet set = entry.set();
            if (!e.getKey().equals(workflow)) {
                set = set.difference(conflicts.getOrDefault(e.getKey(), FieldSet.EMPTY)).difference(compare.removed());
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
        Compare.Comparison compare = compare(live, newObj);
        LinkedHashMap<ManagerKey, ManagedFields.Entry> out;
        try {
            out = update(compare, managers, manager, true);
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
        merged = prune(merged, next, manager, last == null ? FieldSet.EMPTY : last.set());
        Compare.Comparison compare = compare(live, merged);
        LinkedHashMap<ManagerKey, ManagedFields.Entry> out = update(compare, next, manager, force);
        boolean unchanged = live != null && Values.equal(live, merged);
        return new Applied(unchanged ? null : merged, out);
    }

    /**
     * Removes what the applier applied last time and no longer does, unless some manager (the
     * applier's new set included) owns it; fields nobody owns that it never applied stay.
     */
    private ObjectNode prune(ObjectNode merged, Map<ManagerKey, ManagedFields.Entry> managers, ManagerKey applier,
            FieldSet lastSet) {
        if (lastSet.isEmpty() || lastSet.isSubsetOf(managers.get(applier).set())) {
            // still applying everything it applied: each such path and its parents are owned now
            return merged;
        }
        FieldSet last = lastSet.ensureNamedFieldsAreMembers(type);
        ObjectNode pruned = RemoveItems.of(type, merged, last);
        FieldSet mergedSet = ToFieldSet.of(type, merged).ensureNamedFieldsAreMembers(type);
        FieldSet managed = FieldSet.EMPTY;
        for (ManagedFields.Entry e : managers.values()) {
            managed = managed.union(e.set());
        }
        managed = managed.ensureNamedFieldsAreMembers(type);
        FieldSet prunedSet = ToFieldSet.of(type, pruned).ensureNamedFieldsAreMembers(type);
        pruned = RemoveItems.of(type, merged, mergedSet.difference(prunedSet.union(managed)));
        prunedSet = ToFieldSet.of(type, pruned).ensureNamedFieldsAreMembers(type);
        return RemoveItems.of(type, merged, mergedSet.difference(prunedSet).intersection(last));
    }
}
