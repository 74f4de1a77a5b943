package io.kapi.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.harness.ApiHarness;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** kube-apiserver's legacy token tracking ConfigMap, as a server keeps it from its start. */
class LegacyTokenTrackingSinceTest {

    private static final String PATH = "/api/v1/namespaces/kube-system/configmaps/"
            + LegacyTokenTrackingSince.NAME;
    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + ": not within 10 s");
            Thread.sleep(5);
        }
    }

    private static String since() {
        return api.get(PATH).body().path("data").path("since").asText();
    }

    @Test
    @DisplayName("made at start with today's UTC date; a since that is no date is set to today; "
            + "a deleted one is not made again within 30 minutes")
    void keptAsKubeKeepsIt() throws InterruptedException {
        await("the ConfigMap", () -> api.get(PATH).code() == 200);
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        String made = since();
        assertTrue(made.equals(today) || LocalDate.parse(made).plusDays(1).toString().equals(today), made);
        assertEquals(1, api.get(PATH).body().path("data").size());

        assertEquals(200, api.patch(PATH, "application/merge-patch+json",
                "{\"data\":{\"since\":\"2024-02-30\"}}").code());
        await("the date mended", () -> since().equals(LocalDate.now(ZoneOffset.UTC).toString()));
        assertEquals(200, api.patch(PATH, "application/merge-patch+json",
                "{\"data\":{\"since\":\"2020-01-02\",\"other\":\"kept\"}}").code());
        Thread.sleep(300);
        assertEquals("2020-01-02", since(), "a date is left as it is, however old");
        assertEquals("kept", api.get(PATH).body().path("data").path("other").asText());

        assertEquals(200, api.delete(PATH).code());
        Thread.sleep(500);
        assertEquals(404, api.get(PATH).code(), "made again within 30 minutes of its creation");
    }

    @Test
    void dates() {
        assertTrue(LegacyTokenTrackingSince.isDate("2026-12-07"));
        assertFalse(LegacyTokenTrackingSince.isDate("2026-2-07"));
        assertFalse(LegacyTokenTrackingSince.isDate("2026-02-30"));
        assertFalse(LegacyTokenTrackingSince.isDate(""));
        assertFalse(LegacyTokenTrackingSince.isDate("2026-12-07T00:00:00Z"));
    }
}
