package io.kapi.metrics;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Bounds one family's label values by {@code --allow-metric-labels}: a value not in its label's list is
 * exposed as {@code unexpected}, as kube's component-base does. Families without an entry pass values on
 * untouched, at the cost of one null check.
 */
final class LabelAllowList {

    static final String UNEXPECTED = "unexpected";

    private final Set<String>[] allowed;

    private LabelAllowList(Set<String>[] allowed) {
        this.allowed = allowed;
    }

    /** The list for {@code definition}, or null when no label of it is restricted. */
    @SuppressWarnings("unchecked")
    static LabelAllowList of(Definition definition, Map<String, Set<String>> lists) {
        List<String> labels = definition.labels();
        Set<String>[] allowed = new Set[labels.size()];
        boolean any = false;
        for (int i = 0; i < labels.size(); i++) {
            allowed[i] = lists.get(definition.name() + "," + labels.get(i));
            any |= allowed[i] != null;
        }
        return any ? new LabelAllowList(allowed) : null;
    }

    /** {@code values} with every value its label does not allow replaced by {@code unexpected}. */
    String[] apply(String[] values) {
        String[] out = values;
        for (int i = 0; i < allowed.length && i < values.length; i++) {
            if (allowed[i] != null && !allowed[i].contains(values[i])) {
                if (out == values) {
                    out = values.clone();
                }
                out[i] = UNEXPECTED;
            }
        }
        return out;
    }
}
