package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TtlAfterFinishedTest {

    private static JsonNode job(String spec, String conditions) throws Exception {
        return Json.MAPPER.readTree(("{'metadata':{'name':'j'},'spec':{" + spec + "},'status':{'conditions':[" + conditions
                + "]}}").replace('\'', '"'));
    }

    private static final String COMPLETE = "{'type':'SuccessCriteriaMet','status':'True','lastTransitionTime':"
            + "'2026-01-01T00:00:00Z'},{'type':'Complete','status':'True','lastTransitionTime':'2026-01-01T00:00:01Z'}";
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:30Z");

    @Test
    @DisplayName("a finished Job expires ttlSecondsAfterFinished after its Complete or Failed condition turned True")
    void expiry() throws Exception {
        assertEquals(Optional.of(Duration.ofSeconds(71)), TtlAfterFinishedController.timeLeft(
                job("'ttlSecondsAfterFinished':100", COMPLETE), NOW));
        assertEquals(Optional.of(Duration.ofSeconds(-29)), TtlAfterFinishedController.timeLeft(
                job("'ttlSecondsAfterFinished':0", COMPLETE), NOW));
        assertEquals(Optional.of(Duration.ofSeconds(-20)), TtlAfterFinishedController.timeLeft(job(
                "'ttlSecondsAfterFinished':0", "{'type':'Failed','status':'True','lastTransitionTime':'2026-01-01T00:00:10Z'}"),
                NOW));
    }

    @Test
    @DisplayName("no TTL, not finished (SuccessCriteriaMet or FailureTarget alone), or being deleted: never expires")
    void never() throws Exception {
        assertEquals(Optional.empty(), TtlAfterFinishedController.timeLeft(job("", COMPLETE), NOW));
        assertEquals(Optional.empty(), TtlAfterFinishedController.timeLeft(job("'ttlSecondsAfterFinished':0",
                "{'type':'SuccessCriteriaMet','status':'True','lastTransitionTime':'2026-01-01T00:00:00Z'}"), NOW));
        assertEquals(Optional.empty(), TtlAfterFinishedController.timeLeft(job("'ttlSecondsAfterFinished':0",
                "{'type':'FailureTarget','status':'True','lastTransitionTime':'2026-01-01T00:00:00Z'}"), NOW));
        JsonNode deleting = job("'ttlSecondsAfterFinished':0", COMPLETE);
        ((com.fasterxml.jackson.databind.node.ObjectNode) deleting.path("metadata")).put("deletionTimestamp",
                "2026-01-01T00:00:20Z");
        assertEquals(Optional.empty(), TtlAfterFinishedController.timeLeft(deleting, NOW));
    }
}
