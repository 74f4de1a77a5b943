package io.kapi.workloads;

import java.util.ArrayList;
import java.util.List;

/**
 * A set of completion indexes as kube's Job controller keeps them ({@code orderedIntervals}): sorted,
 * disjoint intervals, written in {@code status.completedIndexes} as {@code "1,3-5,7,8"} (two neighbours
 * are listed, three or more make a range). {@link #parse} takes what a status or a success policy says and,
 * as kube's {@code parseIndexesFromString}, skips a malformed part and stops at the first index at or above
 * {@code completions}.
 */
record IndexSet(List<Interval> intervals) {

    record Interval(int first, int last) {
    }

    static final IndexSet EMPTY = new IndexSet(List.of());

    static IndexSet parse(String text, int completions) {
        if (text == null || text.isEmpty()) {
            return EMPTY;
        }
        List<Integer> indexes = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] range = part.split("-", 2);
            int first;
            int last;
            try {
                first = Integer.parseInt(range[0]);
                last = range.length == 2 ? Integer.parseInt(range[1]) : first;
            } catch (NumberFormatException e) {
                continue;
            }
            if (first >= completions) {
                break;
            }
            for (int i = first; i <= Math.min(last, completions - 1); i++) {
                indexes.add(i);
            }
        }
        return EMPTY.with(indexes);
    }

    /** This set with {@code indexes} added (any order, repeats allowed). */
    IndexSet with(List<Integer> indexes) {
        boolean[] seen = new boolean[Math.max(max() + 1, indexes.stream().mapToInt(i -> i + 1).max().orElse(0))];
        for (Interval in : intervals) {
            for (int i = in.first(); i <= in.last(); i++) {
                seen[i] = true;
            }
        }
        for (int i : indexes) {
            if (i >= 0) {
                seen[i] = true;
            }
        }
        List<Interval> out = new ArrayList<>();
        for (int i = 0; i < seen.length; i++) {
            if (!seen[i]) {
                continue;
            }
            int first = i;
            while (i + 1 < seen.length && seen[i + 1]) {
                i++;
            }
            out.add(new Interval(first, i));
        }
        return new IndexSet(List.copyOf(out));
    }

    private int max() {
        return intervals.isEmpty() ? -1 : intervals.getLast().last();
    }

    boolean has(int index) {
        for (Interval in : intervals) {
            if (index >= in.first() && index <= in.last()) {
                return true;
            }
        }
        return false;
    }

    int total() {
        return intervals.stream().mapToInt(in -> in.last() - in.first() + 1).sum();
    }

    /** kube's {@code matchSucceededIndexesRule}: all of {@code this} succeeded, or at least {@code count} of it. */
    boolean satisfiedBy(IndexSet succeeded, Integer count) {
        int contains = 0;
        for (Interval rule : intervals) {
            for (Interval s : succeeded.intervals()) {
                contains += Math.max(0, Math.min(rule.last(), s.last()) - Math.max(rule.first(), s.first()) + 1);
            }
        }
        return contains == total() || (count != null && contains >= count);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Interval in : intervals) {
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(in.first());
            if (in.last() > in.first()) {
                b.append(in.last() == in.first() + 1 ? ',' : '-').append(in.last());
            }
        }
        return b.toString();
    }
}
