package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class IndexSetTest {

    @Test
    @DisplayName("completedIndexes is written as kube writes it: ranges of three or more, neighbours listed")
    void compressedForm() {
        assertEquals("", IndexSet.EMPTY.toString());
        assertEquals("1,3-5", IndexSet.EMPTY.with(List.of(5, 1, 4, 3)).toString());
        assertEquals("0,1", IndexSet.EMPTY.with(List.of(1, 0)).toString());
        assertEquals("0-2,7,8", IndexSet.EMPTY.with(List.of(8, 2, 0, 1, 7, 2)).toString());
    }

    @Test
    @DisplayName("parsing merges touching intervals, skips malformed parts and stops at the first index past completions")
    void parse() {
        assertEquals("1,3-5", IndexSet.parse("1,3-5", 10).toString());
        assertEquals("0-5", IndexSet.parse("0-2,3,4,5", 10).toString());
        assertEquals("1,4", IndexSet.parse("1,x,4", 10).toString());
        assertEquals("1,3", IndexSet.parse("1,3-7,9", 4).toString());
        assertEquals("1", IndexSet.parse("1,5,2", 4).toString(), "stops at 5, as kube's parser does");
        assertEquals(4, IndexSet.parse("0,2-4", 10).total());
    }

    @Test
    @DisplayName("adding indexes to a parsed set keeps it sorted and merged")
    void add() {
        IndexSet set = IndexSet.parse("0,2", 5).with(List.of(1, 4));
        assertEquals("0-2,4", set.toString());
        assertTrue(set.has(1));
        assertFalse(set.has(3));
    }

    @Test
    @DisplayName("a success rule's indexes are met when all succeeded, or at least succeededCount of them")
    void successRule() {
        IndexSet rule = IndexSet.parse("0-3", 10);
        assertFalse(rule.satisfiedBy(IndexSet.parse("0-2,5", 10), null));
        assertTrue(rule.satisfiedBy(IndexSet.parse("0-4", 10), null));
        assertTrue(rule.satisfiedBy(IndexSet.parse("1,3,9", 10), 2));
        assertFalse(rule.satisfiedBy(IndexSet.parse("1,9", 10), 2));
    }
}
