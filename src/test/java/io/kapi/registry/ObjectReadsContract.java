package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.StoreCalls;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What every read path of the registry answers alike (the object-level contract): subclasses read
 * through storage directly and through the watch cache; the writes are the same.
 */
abstract class ObjectReadsContract {

    protected WatchFixture f;
    protected ResourceReads reads;

    /** The read path under test, over the fixture's configmaps. */
    protected abstract ResourceReads reads(WatchFixture fixture);

    @BeforeEach
    void setUp() {
        f = new WatchFixture(WatchFixture.fastOptions());
        reads = reads(f);
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private ObjectNode create(String ns, String name, String color) {
        return StoreCalls.create(f.configmaps, ns, WatchFixture.configMap(name, Map.of("color", color)), false);
    }

    private static List<String> names(ListResult r) {
        return r.items().stream().map(o -> ObjectMeta.of(o).name()).toList();
    }

    private static ListOptions options(long limit, String token, String labels, String fields, String rv, String match) {
        return new ListOptions(limit, token, LabelSelector.parse(labels), FieldSelector.parse(fields), rv, match,
                null, false);
    }

    @Test
    @DisplayName("get reads the latest version; a deleted object is NotFound")
    void get() {
        ObjectNode c1 = create("default", "c1", "red");
        assertEquals(ObjectMeta.of(c1).resourceVersion(), ObjectMeta.of(reads.get("default", "c1", "")).resourceVersion());
        StoreCalls.delete(f.configmaps, "default", "c1", DeleteOptions.DEFAULT);
        assertEquals(404, assertThrows(ApiException.class, () -> reads.get("default", "c1", "")).code());
    }

    @Test
    @DisplayName("a shared get reads what a get reads: the latest write, whether or not the cache was started; NotFound after a delete")
    void sharedGet() {
        ObjectNode c1 = create("default", "c1", "red");
        assertEquals(reads.get("default", "c1", ""), reads.getShared("default", "c1", "").object());
        reads.list("default", ListOptions.ALL); // starts the watch cache, where there is one
        for (String color : List.of("green", "blue", "white")) {
            ObjectNode written = StoreCalls.update(f.configmaps, "default", "c1",
                    WatchFixture.configMap("c1", Map.of("color", color)), false).object();
            ObjectNode read = reads.getShared("default", "c1", "").object();
            assertEquals(ObjectMeta.of(written).resourceVersion(), ObjectMeta.of(read).resourceVersion(),
                    "a consistent get sees the write acknowledged before it");
            assertEquals(color, read.path("metadata").path("labels").path("color").asText());
            assertEquals(reads.get("default", "c1", ""), read);
        }
        assertEquals(ObjectMeta.of(c1).name(), ObjectMeta.of(reads.getShared("default", "c1", "0").object()).name());
        StoreCalls.delete(f.configmaps, "default", "c1", DeleteOptions.DEFAULT);
        assertEquals(404, assertThrows(ApiException.class, () -> reads.getShared("default", "c1", "")).code());
    }

    @Test
    @DisplayName("a consistent list sees every acknowledged write, selected by labels, fields and namespace")
    void consistentList() {
        create("default", "a", "red");
        create("default", "b", "blue");
        create("kube-system", "c", "red");
        assertEquals(List.of("a", "b"), names(reads.list("default", options(0, null, "", "", "", ""))));
        assertEquals(List.of("a", "b", "c"), names(reads.list("", options(0, null, "", "", "", ""))));
        assertEquals(List.of("a", "c"), names(reads.list("", options(0, null, "color=red", "", "", ""))));
        assertEquals(List.of("b"), names(reads.list("", options(0, null, "", "metadata.name=b", "", ""))));
        assertEquals(List.of("c"), names(reads.list("", options(0, null, "", "metadata.namespace=kube-system", "", ""))));
    }

    @Test
    @DisplayName("paging returns every object once, in key order, with the first page's resourceVersion")
    void paging() {
        for (int i = 0; i < 7; i++) {
            create("default", "p" + i, i % 2 == 0 ? "red" : "blue");
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        String first = null;
        do {
            ListResult page = reads.list("default", options(3, token, "", "", "", ""));
            first = first == null ? page.resourceVersion() : first;
            assertEquals(first, page.resourceVersion(), "one snapshot");
            seen.addAll(names(page));
            token = page.continueToken();
            if (token != null) {
                create("default", "late" + seen.size(), "red");
            }
        } while (token != null);
        assertEquals(List.of("p0", "p1", "p2", "p3", "p4", "p5", "p6"), seen);
    }

    @Test
    @DisplayName("an Exact list reads the state of that version; a future version is 504 ResourceVersionTooLarge")
    void exactAndTooLarge() {
        ObjectNode a = create("default", "a", "red");
        create("default", "b", "red");
        ListResult then = reads.list("default", options(0, null, "", "", ObjectMeta.of(a).resourceVersion(), "Exact"));
        assertEquals(List.of("a"), names(then));
        long future = Long.parseLong(ObjectMeta.of(a).resourceVersion()) + 1000;
        ApiException e = assertThrows(ApiException.class,
                () -> reads.list("default", options(0, null, "", "", Long.toString(future), "Exact")));
        assertEquals(504, e.code());
    }

    @Test
    @DisplayName("resourceVersion=0 serves a state at least as new as the last write it waited for")
    void anyVersion() {
        create("default", "a", "red");
        ListResult any = reads.list("default", options(0, null, "", "", "0", ""));
        assertNotNull(any.resourceVersion());
        assertTrue(names(any).size() <= 1);
        ListResult notOlder = reads.list("default", options(0, null, "", "", any.resourceVersion(), "NotOlderThan"));
        assertTrue(Long.parseLong(notOlder.resourceVersion()) >= Long.parseLong(any.resourceVersion()));
    }
}
