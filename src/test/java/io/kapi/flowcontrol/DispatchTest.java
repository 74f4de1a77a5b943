package io.kapi.flowcontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.flowcontrol.FlowControl.Admission;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DispatchTest {

    /** Everyone in schema "all" (by user) routes to level "pl"; system:masters to exempt. */
    static final String EVERYONE = """
            [{"subjects": [{"kind": "Group", "group": {"name": "*"}}],
              "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "namespaces": ["*"],
                                 "clusterScope": true}],
              "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]""";

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    static PriorityLevel rejecting(String name, int shares, int lendable, int borrowing) {
        return new PriorityLevel(name, "uid-" + name, false, shares, lendable, borrowing, 0, 0, 0);
    }

    static PriorityLevel queuing(String name, int shares, int queues, int handSize, int length) {
        return new PriorityLevel(name, "uid-" + name, false, shares, 0, 0, queues, handSize, length);
    }

    static RequestContext request(String user, String... groups) {
        RequestInfo info = RequestInfo.parse("GET", "/api/v1/namespaces/n/configmaps/c", Map.of());
        List<String> all = new ArrayList<>(List.of(groups));
        all.add("system:authenticated");
        return RequestContext.of(info, null, null, "test").withUser(new UserInfo(user, "", all));
    }

    static Admission admit(FlowControl fc, RequestContext r) {
        return fc.admit(r, Map.of(), Instant.now().plusSeconds(5));
    }

    static void release(Admission a) {
        ((Admission.Admitted) a).release().run();
    }

    private static void awaitWaiting(PriorityAndFairness apf, String level, int count) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < end) {
            int waiting = apf.inspect(levels -> levels.stream().filter(l -> l.config.name().equals(level))
                    .mapToInt(Level::waiting).sum());
            if (waiting == count) {
                return;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("never " + count + " waiting at " + level);
    }

    @Test
    @DisplayName("a Reject level with one seat runs one request and rejects the next with Retry-After 1; exempt users pass")
    void rejectLevel() {
        // 600 seats, shares 1 of 600: exactly one seat
        PriorityAndFairness apf = new PriorityAndFairness(600, ObjectCounts.NONE);
        apf.configure(List.of(ClassifierTest.schema("all", 500, "pl", "ByUser", EVERYONE)),
                List.of(rejecting("pl", 1, 0, 0), rejecting("catch-all", 599, 0, 0)));
        Admission first = admit(apf, request("flood", "g"));
        Admission.Admitted admitted = assertInstanceOf(Admission.Admitted.class, first);
        assertEquals("uid-pl", admitted.classification().priorityLevelUid());
        assertEquals("uid-all", admitted.classification().flowSchemaUid());
        Admission.Rejected second = assertInstanceOf(Admission.Rejected.class, admit(apf, request("flood", "g")));
        assertEquals(1, second.retryAfterSeconds());
        assertEquals("uid-pl", second.classification().priorityLevelUid());
        for (int i = 0; i < 50; i++) {
            release(assertInstanceOf(Admission.Admitted.class, admit(apf, request("admin", "system:masters"))));
        }
        release(first);
        release(assertInstanceOf(Admission.Admitted.class, admit(apf, request("flood", "g"))));
    }

    @Test
    @DisplayName("a level borrows lendable seats of idle levels up to its borrowing limit, and the lender gets them back")
    void borrowing() {
        // 4 seats: lender nominal 2 (1 lendable), borrower nominal 2, may borrow 50 % = 1 more
        PriorityAndFairness apf = new PriorityAndFairness(4, ObjectCounts.NONE);
        apf.configure(List.of(ClassifierTest.schema("lend", 100, "lender", null, EVERYONE.replace("\"*\"}}]", "\"lenders\"}}]")),
                        ClassifierTest.schema("borrow", 200, "borrower", null, EVERYONE)),
                List.of(rejecting("lender", 50, 50, 0), rejecting("borrower", 50, 0, 50), rejecting("catch-all", 0, 0, 0)));
        List<Admission> borrower = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            borrower.add(assertInstanceOf(Admission.Admitted.class, admit(apf, request("b", "g"))));
        }
        assertInstanceOf(Admission.Rejected.class, admit(apf, request("b", "g")), "beyond the borrowing limit");
        Admission lent = admit(apf, request("l", "lenders"));
        assertInstanceOf(Admission.Admitted.class, lent, "the lender's own seat");
        assertInstanceOf(Admission.Rejected.class, admit(apf, request("l", "lenders")), "its lendable seat is lent");
        release(borrower.removeLast());
        Admission back = assertInstanceOf(Admission.Admitted.class, admit(apf, request("l", "lenders")));
        assertInstanceOf(Admission.Rejected.class, admit(apf, request("b", "g")), "the pool is used up");
        release(back);
        release(lent);
        borrower.forEach(DispatchTest::release);
    }

    @Test
    @DisplayName("with borrowingLimitPercent 0 a level never goes beyond its nominal seats")
    void noBorrowing() {
        PriorityAndFairness apf = new PriorityAndFairness(4, ObjectCounts.NONE);
        apf.configure(List.of(ClassifierTest.schema("all", 100, "pl", null, EVERYONE)),
                List.of(rejecting("pl", 50, 0, 0), rejecting("catch-all", 50, 100, 0)));
        Admission a = admit(apf, request("u", "g"));
        Admission b = admit(apf, request("u", "g"));
        assertInstanceOf(Admission.Admitted.class, b);
        assertInstanceOf(Admission.Rejected.class, admit(apf, request("u", "g")));
        release(a);
        release(b);
    }

    @Test
    @DisplayName("two flows queued in one level (a queue each: hands of one) are served alternately, however many each queued first")
    void fairQueuing() throws Exception {
        // fair queuing's clock stands still: the twelve arrive at the same progress R, as if at once
        PriorityAndFairness apf = new PriorityAndFairness(600, ObjectCounts.NONE, () -> 0L);
        apf.configure(List.of(ClassifierTest.schema("all", 500, "pl", "ByUser", EVERYONE)),
                List.of(queuing("pl", 1, 64, 1, 50), rejecting("catch-all", 599, 0, 0)));
        Admission holder = admit(apf, request("holder", "g"));
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> done = new ArrayList<>();
        int waiting = 0;
        for (String user : List.of("x", "y")) {
            for (int i = 0; i < 6; i++) {
                done.add(CompletableFuture.runAsync(() -> {
                    Admission a = admit(apf, request(user, "g"));
                    order.add(user);
                    release(a);
                }, threads));
                awaitWaiting(apf, "pl", ++waiting);
            }
        }
        release(holder);
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get();
        int lead = 0;
        for (String user : order) {
            lead += user.equals("x") ? 1 : -1;
            assertTrue(Math.abs(lead) <= 1, "order " + order);
        }
    }

    @Test
    @DisplayName("a light flow arriving while wide LISTs of other flows fill the level takes the next free seat, "
            + "before a LIST queued earlier by a flow that used more than its share")
    void lightFlowBeforeFlood() throws Exception {
        // 100 seats (shares 100 of 600), no borrowing; a LIST of configmaps costs 10 seats, a GET 1
        AtomicLong clock = new AtomicLong();
        ObjectCounts counts = (g, v, r) -> r.equals("configmaps") ? new ObjectCounts.Counts(1000, 0) : null;
        PriorityAndFairness apf = new PriorityAndFairness(600, counts, clock::get);
        apf.configure(List.of(ClassifierTest.schema("all", 500, "pl", "ByUser", EVERYONE)),
                List.of(queuing("pl", 100, 64, 1, 50), rejecting("catch-all", 500, 0, 0)));
        List<Admission> a1 = new ArrayList<>();
        List<Admission> a2 = new ArrayList<>();
        List<Admission> c = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a1.add(assertInstanceOf(Admission.Admitted.class, admit(apf, list("a1"))));
        }
        for (int i = 0; i < 4; i++) {
            a2.add(assertInstanceOf(Admission.Admitted.class, admit(apf, list("a2"))));
        }
        for (int i = 0; i < 10; i++) {
            c.add(assertInstanceOf(Admission.Admitted.class, admit(apf, request("c", "g"))));
        }
        // the level is full; a2 runs a LIST for a second, then queues another, which takes its seats back
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        CompletableFuture<Admission> a2Next = CompletableFuture.supplyAsync(() -> admit(apf, list("a2")), threads);
        awaitWaiting(apf, "pl", 1);
        release(a2.removeFirst());
        a2.add(a2Next.get());
        // a1, which ran five LISTs a second, and the light flow b queue; one GET of c ends: one seat frees
        CompletableFuture<Admission> a1Next = CompletableFuture.supplyAsync(() -> admit(apf, list("a1")), threads);
        awaitWaiting(apf, "pl", 1);
        CompletableFuture<Admission> b = CompletableFuture.supplyAsync(() -> admit(apf, request("b", "g")), threads);
        awaitWaiting(apf, "pl", 2);
        release(c.removeFirst());
        Admission light = b.get(2, TimeUnit.SECONDS);
        assertInstanceOf(Admission.Admitted.class, light, "the GET takes the free seat");
        assertTrue(!a1Next.isDone(), "the LIST still waits for 10 seats");
        release(light);
        a1.forEach(DispatchTest::release);
        assertInstanceOf(Admission.Admitted.class, a1Next.get());
        release(a1Next.get());
        a2.forEach(DispatchTest::release);
        c.forEach(DispatchTest::release);
    }

    static RequestContext list(String user) {
        RequestInfo info = RequestInfo.parse("GET", "/api/v1/namespaces/n/configmaps", Map.of());
        return RequestContext.of(info, null, null, "test").withUser(new UserInfo(user, "", List.of("g", "system:authenticated")));
    }

    @Test
    @DisplayName("kube's max seats of a level: 15 % of its nominal seats, at most nominal over hand size, 1 to 10")
    void maxSeats() {
        // kube's Test_GetMaxSeats cases (nominal, hand size, max seats)
        int[][] cases = {{5, 6, 1}, {10, 6, 1}, {15, 6, 2}, {20, 6, 3}, {35, 6, 5}, {100, 6, 10}, {10, 1, 2}, {100, 20, 5}};
        for (int[] c : cases) {
            assertEquals(c[2], PriorityAndFairness.maxSeats(c[0], queuing("pl", 1, 64, c[1], 50)),
                    "nominal " + c[0] + ", hand size " + c[1]);
        }
        // the suggested global-default: 49 seats of 600, hands of 6
        assertEquals(8, PriorityAndFairness.maxSeats(49, queuing("global-default", 20, 128, 6, 50)));
        assertEquals(10, PriorityAndFairness.maxSeats(100, rejecting("pl", 1, 0, 0)), "no queues: the estimator's 10");
        assertEquals(3, PriorityAndFairness.maxSeats(3, rejecting("pl", 1, 0, 0)), "never beyond its nominal seats");
    }

    @Test
    @DisplayName("a full queue rejects at once; a request that waits past its wait limit is rejected")
    void queueLimits() throws Exception {
        PriorityAndFairness apf = new PriorityAndFairness(600, ObjectCounts.NONE);
        apf.configure(List.of(ClassifierTest.schema("all", 500, "pl", null, EVERYONE)),
                List.of(queuing("pl", 1, 1, 1, 1), rejecting("catch-all", 599, 0, 0)));
        Admission holder = admit(apf, request("u", "g"));
        CompletableFuture<Admission> queued = CompletableFuture.supplyAsync(
                () -> apf.admit(request("u", "g"), Map.of(), Instant.now().plusMillis(300)), threads);
        awaitWaiting(apf, "pl", 1);
        assertInstanceOf(Admission.Rejected.class, admit(apf, request("u", "g")), "the queue holds one");
        assertInstanceOf(Admission.Rejected.class, queued.get(), "timed out");
        String dump = apf.inspect(DebugDumps::priorityLevels);
        assertTrue(dump.lines().anyMatch(l -> l.startsWith("pl,") && l.replace(" ", "").endsWith(",0,1,1,1,1,0")), dump);
        release(holder);
    }

    @Test
    @DisplayName("a reconfiguration takes effect at once; a removed level finishes what it runs, then goes")
    void liveReconfiguration() {
        PriorityAndFairness apf = new PriorityAndFairness(600, ObjectCounts.NONE);
        apf.configure(List.of(ClassifierTest.schema("all", 500, "pl", null, EVERYONE)),
                List.of(rejecting("pl", 1, 0, 0), rejecting("catch-all", 599, 0, 0)));
        Admission running = admit(apf, request("u", "g"));
        assertInstanceOf(Admission.Rejected.class, admit(apf, request("u", "g")));
        Set<String> dangling = apf.configure(List.of(ClassifierTest.schema("all", 500, "gone", null, EVERYONE)),
                List.of(rejecting("catch-all", 600, 0, 0)));
        assertEquals(Set.of("all"), dangling);
        assertTrue(apf.inspect(DebugDumps::priorityLevels).contains("true,        0"), "pl quiesces");
        Admission.Admitted now = assertInstanceOf(Admission.Admitted.class, admit(apf, request("u", "g")));
        assertEquals("catch-all", now.classification().flowSchema(), "the mandatory catch-all stands in");
        release(now);
        release(running);
        boolean gone = apf.inspect(levels -> levels.stream().noneMatch(l -> l.config.name().equals("pl")));
        assertTrue(gone, "pl is gone once idle");
    }

    @Test
    @DisplayName("shuffle sharding deals distinct queues, the same for the same flow, spread over the deck")
    void shuffleSharding() {
        int[] seen = new int[64];
        for (int i = 0; i < 20_000; i++) {
            long hash = ShuffleSharding.flowHash("schema", "user" + i);
            int[] hand = ShuffleSharding.deal(hash, 64, 8);
            Set<Integer> distinct = new HashSet<>();
            for (int card : hand) {
                assertTrue(card >= 0 && card < 64);
                distinct.add(card);
                seen[card]++;
            }
            assertEquals(8, distinct.size());
        }
        // 57 = 3 + 6 × (4 + 5 × 1): digits 3, 4, 1; the second skips the card dealt first, the third none
        assertEquals(List.of(3, 5, 1), toList(ShuffleSharding.deal(57, 6, 3)));
        for (int count : seen) {
            // 20,000 × 8 / 64 = 2,500 expected per queue
            assertTrue(count > 2200 && count < 2800, "queue dealt " + count + " times");
        }
        assertEquals(toList(ShuffleSharding.deal(12345, 64, 8)), toList(ShuffleSharding.deal(12345, 64, 8)));
    }

    private static List<Integer> toList(int[] cards) {
        List<Integer> list = new ArrayList<>();
        for (int c : cards) {
            list.add(c);
        }
        return list;
    }
}
