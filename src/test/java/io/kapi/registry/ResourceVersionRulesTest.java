package io.kapi.registry;

import static io.kapi.registry.WatchFixture.configMap;
import static io.kapi.registry.WatchFixture.describe;
import static io.kapi.registry.WatchFixture.take;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import io.kapi.harness.StoreCalls;

/** get, list and watch under kube-apiserver's resourceVersion rules, served by the watch cache. */
class ResourceVersionRulesTest {

    private WatchFixture f;
    private ResourceStore cms;

    @BeforeEach
    void setUp() {
        f = new WatchFixture(WatchFixture.fastOptions());
        cms = f.configmaps;
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private static ListOptions at(String rv, String match) {
        return ListOptions.ALL.atResourceVersion(rv, match);
    }

    private static String rv(ObjectNode o) {
        return ObjectMeta.of(o).resourceVersion();
    }

    @Test
    @DisplayName("an unset resourceVersion lists consistently: a write just acknowledged is in the list")
    void consistentList() {
        for (int i = 0; i < 50; i++) {
            StoreCalls.create(cms, "default", configMap("c" + i), false);
            ListResult list = cms.list("default", ListOptions.ALL);
            assertEquals(i + 1, list.items().size());
            assertEquals(Long.toString(f.storage.currentRevision()), list.resourceVersion());
        }
    }

    @Test
    @DisplayName("resourceVersion=0 and NotOlderThan list from the cache, with the cache's revision")
    void listFromCache() {
        ObjectNode c1 = StoreCalls.create(cms, "default", configMap("c1"), false);
        ListResult any = cms.list("default", at("0", ""));
        assertTrue(Long.parseLong(any.resourceVersion()) >= 0);
        ListResult notOlder = cms.list("default", at(rv(c1), "NotOlderThan"));
        assertEquals(1, notOlder.items().size());
        assertTrue(Long.parseLong(notOlder.resourceVersion()) >= Long.parseLong(rv(c1)));
    }

    @Test
    @DisplayName("a version the server has not reached is a 504 ResourceVersionTooLarge after waiting")
    void tooLarge() {
        long future = f.storage.currentRevision() + 100;
        ApiException list = assertThrows(ApiException.class, () -> cms.list("default", at(Long.toString(future), "NotOlderThan")));
        assertEquals(StatusReason.TIMEOUT, list.reason());
        assertEquals(504, list.code());
        assertEquals("Timeout: Too large resource version: %d, current: %d".formatted(future, f.storage.currentRevision()),
                list.getMessage());
        assertEquals("ResourceVersionTooLarge", list.details().causes().getFirst().reason());
        assertEquals(1, list.details().retryAfterSeconds());
        ApiException get = assertThrows(ApiException.class, () -> cms.get("default", "x", Long.toString(future)));
        assertEquals(504, get.code());
    }

    @Test
    @DisplayName("Exact lists the state of that revision, even after later writes")
    void exact() {
        ObjectNode c1 = StoreCalls.create(cms, "default", configMap("c1"), false);
        StoreCalls.create(cms, "default", configMap("c2"), false);
        StoreCalls.delete(cms, "default", "c1", DeleteOptions.DEFAULT);
        ListResult then = cms.list("default", at(rv(c1), "Exact"));
        assertEquals(List.of("c1"), then.items().stream().map(o -> ObjectMeta.of(o).name()).toList());
        assertEquals(rv(c1), then.resourceVersion());
    }

    @Test
    @DisplayName("Exact at a compacted revision is 410 Expired")
    void exactCompacted() {
        ObjectNode c1 = StoreCalls.create(cms, "default", configMap("c1"), false);
        StoreCalls.create(cms, "default", configMap("c2"), false);
        f.storage.compact(f.storage.currentRevision());
        ApiException e = assertThrows(ApiException.class, () -> cms.list("default", at(rv(c1), "Exact")));
        assertEquals(410, e.code());
        assertEquals(StatusReason.EXPIRED, e.reason());
    }

    @Test
    @DisplayName("bad option combinations are 422 Invalid ListOptions, worded as kube-apiserver")
    void invalidCombinations() {
        ApiException noRv = assertThrows(ApiException.class, () -> cms.list("default", at("", "NotOlderThan")));
        assertEquals(422, noRv.code());
        assertEquals("ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: "
                + "resourceVersionMatch is forbidden unless resourceVersion is provided", noRv.getMessage());
        ApiException exactZero = assertThrows(ApiException.class, () -> cms.list("default", at("0", "Exact")));
        assertTrue(exactZero.getMessage().contains("resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
        ApiException bogus = assertThrows(ApiException.class, () -> cms.list("default", at("1", "Bogus")));
        assertTrue(bogus.getMessage().endsWith("resourceVersionMatch: Unsupported value: \"Bogus\": supported values: "
                + "\"Exact\", \"NotOlderThan\", \"\""), bogus.getMessage());
        ApiException watchMatch = assertThrows(ApiException.class, () -> cms.watch("default", at("1", "NotOlderThan")));
        assertTrue(watchMatch.getMessage().endsWith(
                "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"), watchMatch.getMessage());
        ApiException initialOnList = assertThrows(ApiException.class,
                () -> cms.list("default", ListOptions.ALL.forWatch(true, false)));
        assertTrue(initialOnList.getMessage().endsWith("sendInitialEvents is forbidden for list"));
        ApiException malformed = assertThrows(ApiException.class, () -> cms.list("default", at("abc", "")));
        assertEquals(400, malformed.code());
    }

    @Test
    @DisplayName("a continue token with a resourceVersion is 400, as kube-apiserver")
    void continueWithVersion() {
        for (int i = 0; i < 3; i++) {
            StoreCalls.create(cms, "default", configMap("c" + i), false);
        }
        ListResult first = cms.list("default", new ListOptions(1, null, LabelSelector.EVERYTHING, FieldSelector.EVERYTHING));
        assertNotNull(first.continueToken());
        ListOptions next = new ListOptions(1, first.continueToken(), LabelSelector.EVERYTHING, FieldSelector.EVERYTHING,
                "5", "", null, false);
        ApiException e = assertThrows(ApiException.class, () -> cms.list("default", next));
        assertEquals(400, e.code());
        assertEquals("specifying resource version is not allowed when using continue", e.getMessage());
    }

    @Test
    @DisplayName("paging returns every object exactly once while writes go on, from one snapshot")
    void pagingWhileWriting() {
        pageAll("");
        f.close();
        f = new WatchFixture(WatchFixture.fastOptions());
        cms = f.configmaps;
        pageAll("0");
    }

    private void pageAll(String rv) {
        for (int i = 0; i < 100; i++) {
            StoreCalls.create(cms, "default", configMap("c" + String.format("%03d", i)), false);
        }
        // resourceVersion=0 may be served by a cache that has not seen the creates yet (kube's "any"
        // semantics); a consistent list first makes the cache current, so that there are pages to page
        cms.list("default", ListOptions.ALL);
        Set<String> names = new HashSet<>();
        String token = null;
        String listRv = null;
        long total = -1;
        int pages = 0;
        do {
            ListOptions o = new ListOptions(7, token, LabelSelector.EVERYTHING, FieldSelector.EVERYTHING,
                    token == null ? rv : "", "", null, false);
            ListResult page = cms.list("default", o);
            for (ObjectNode item : page.items()) {
                assertTrue(names.add(ObjectMeta.of(item).name()), "twice: " + ObjectMeta.of(item).name());
            }
            listRv = listRv == null ? page.resourceVersion() : listRv;
            assertEquals(listRv, page.resourceVersion(), "one snapshot");
            if (page.continueToken() != null) {
                total = total < 0 ? names.size() + page.remainingItemCount() : total;
                assertEquals(total - names.size(), page.remainingItemCount());
            }
            token = page.continueToken();
            StoreCalls.create(cms, "default", configMap("new-" + pages++), false);
            StoreCalls.delete(cms, "default", "c" + String.format("%03d", 100 - pages), DeleteOptions.DEFAULT);
        } while (token != null);
        Set<String> snapshot = new HashSet<>();
        cms.list("default", at(listRv, "Exact")).items().forEach(o -> snapshot.add(ObjectMeta.of(o).name()));
        assertEquals(snapshot, names, "rv=" + rv + ": exactly the objects of the snapshot");
        assertEquals(total, names.size());
        if (rv.isEmpty()) {
            assertEquals(100, names.size(), "a consistent list sees every acknowledged write");
        }
    }

    @Test
    @DisplayName("get with a resourceVersion reads the cache once it reached it; 0 reads it as it is")
    void getFromCache() {
        ObjectNode c1 = StoreCalls.create(cms, "default", configMap("c1"), false);
        assertEquals(rv(c1), rv(cms.get("default", "c1", rv(c1))), "waits for the cache to reach the version");
        assertEquals(rv(c1), rv(cms.get("default", "c1", "0")));
        assertEquals(404, assertThrows(ApiException.class, () -> cms.get("default", "nope", "0")).code());
    }

    @Test
    @DisplayName("a watch from a version replays only what came after it; from '' or '0' the state comes first")
    void watchReplayAndInitialState() throws Exception {
        ObjectNode c1 = StoreCalls.create(cms, "default", configMap("c1"), false);
        StoreCalls.create(cms, "default", configMap("c2"), false);
        StoreCalls.delete(cms, "default", "c1", DeleteOptions.DEFAULT);
        try (CacheWatch w = cms.watch("default", at(rv(c1), ""))) {
            assertEquals(List.of("ADDED c2", "DELETED c1"), take(w, 2, Duration.ofSeconds(2)).stream()
                    .map(WatchFixture::describe).toList());
        }
        try (CacheWatch w = cms.watch("default", ListOptions.ALL)) {
            List<Delivery> got = take(w, 2, Duration.ofSeconds(2));
            assertEquals("ADDED c2", describe(got.get(0)));
            assertInstanceOf(Delivery.InitialEventsEnd.class, got.get(1));
            StoreCalls.create(cms, "default", configMap("c3"), false);
            assertEquals("ADDED c3", describe(take(w, 1, Duration.ofSeconds(2)).getFirst()));
        }
        try (CacheWatch w = cms.watch("default", at("", "NotOlderThan").forWatch(false, true))) {
            assertNull(w.poll(50_000_000L), "sendInitialEvents=false sends no state");
            StoreCalls.create(cms, "default", configMap("c4"), false);
            assertEquals("ADDED c4", describe(take(w, 1, Duration.ofSeconds(2)).getFirst()));
        }
    }

    @Test
    @DisplayName("a watch from before the event window gets one ERROR: 410 too old resource version")
    void watchTooOld() throws Exception {
        f.close();
        f = new WatchFixture(WatchFixture.fastOptions().withEventWindow(5));
        cms = f.configmaps;
        ObjectNode first = StoreCalls.create(cms, "default", configMap("c0"), false);
        for (int i = 1; i < 20; i++) {
            StoreCalls.create(cms, "default", configMap("c" + i), false);
        }
        cms.list("default", ListOptions.ALL); // a consistent read: the cache has seen every write
        try (CacheWatch w = cms.watch("default", at(rv(first), ""))) {
            List<Delivery> got = take(w, 1, Duration.ofSeconds(2));
            Delivery.Failure failure = assertInstanceOf(Delivery.Failure.class, got.getFirst());
            ApiException error = StorageErrors.forWatch(failure.cause());
            assertEquals(410, error.code());
            assertEquals(StatusReason.EXPIRED, error.reason());
            assertTrue(error.getMessage().matches("too old resource version: \\d+ \\(\\d+\\)"),
                    error.getMessage());
            assertInstanceOf(Delivery.End.class, w.poll(0));
        }
    }

    @Test
    @DisplayName("an object leaving a label selector is DELETED for the watcher, one entering is ADDED")
    void selectorTransitions() throws Exception {
        ListOptions blue = new ListOptions(0, null, LabelSelector.parse("color=blue"), FieldSelector.EVERYTHING,
                Long.toString(f.storage.currentRevision()), "", null, false);
        try (CacheWatch w = cms.watch("default", blue)) {
            ObjectNode c = StoreCalls.create(cms, "default", configMap("c1", Map.of("color", "red")), false);
            ObjectMeta.of(c).node().with("labels").put("color", "blue");
            c = StoreCalls.update(cms, "default", "c1", c, false).object();
            ((ObjectNode) c.get("data")).put("k", "changed");
            c = StoreCalls.update(cms, "default", "c1", c, false).object();
            ObjectMeta.of(c).node().with("labels").put("color", "green");
            c = StoreCalls.update(cms, "default", "c1", c, false).object();
            List<Delivery> got = take(w, 3, Duration.ofSeconds(2));
            assertEquals(List.of("ADDED c1", "MODIFIED c1", "DELETED c1"), got.stream().map(WatchFixture::describe).toList());
            Delivery.Change deleted = (Delivery.Change) got.get(2);
            assertEquals(rv(c), rv(deleted.object()), "DELETED carries the revision of the change");
            assertEquals("blue", deleted.object().path("metadata").path("labels").path("color").asText(),
                    "and the last version that matched");
        }
    }

    @Test
    @DisplayName("a field selector on metadata.name watches one object")
    void singleObjectWatch() throws Exception {
        ListOptions one = new ListOptions(0, null, LabelSelector.EVERYTHING, FieldSelector.parse("metadata.name=c2"),
                Long.toString(f.storage.currentRevision()), "", null, false);
        try (CacheWatch w = cms.watch("default", one)) {
            StoreCalls.create(cms, "default", configMap("c1"), false);
            StoreCalls.create(cms, "default", configMap("c2"), false);
            StoreCalls.create(cms, "default", configMap("c22"), false);
            assertEquals(List.of("ADDED c2"), take(w, 2, Duration.ofMillis(500)).stream()
                    .map(WatchFixture::describe).toList());
        }
    }

    @Test
    @DisplayName("a watcher that does not keep up is cut off; writers and other watchers go on")
    void slowWatcherCutOff() throws Exception {
        f.close();
        f = new WatchFixture(WatchFixture.fastOptions().withWatcherBuffer(10));
        cms = f.configmaps;
        String now = Long.toString(f.storage.currentRevision());
        try (CacheWatch slow = cms.watch("default", at(now, ""));
             CacheWatch fast = cms.watch("default", at(now, ""))) {
            int received = 0;
            for (int i = 0; i < 50; i++) {
                StoreCalls.create(cms, "default", configMap("c" + i), false);
                received += take(fast, 1, Duration.ofSeconds(2)).size();
            }
            assertEquals(50, received);
            List<Delivery> got = take(slow, 100, Duration.ofSeconds(2));
            assertInstanceOf(Delivery.End.class, got.getLast());
            assertTrue(got.size() <= 11, "at most its buffer, then the end: " + got.size());
        }
    }
}
