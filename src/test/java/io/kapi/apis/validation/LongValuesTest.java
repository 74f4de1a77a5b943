package io.kapi.apis.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.harness.ApiHarness;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Values far longer than any limit, matched against kube's validation patterns: those patterns repeat groups
 * ({@code (\.[a-z0-9]...)*}), which {@code java.util.regex} matches by recursing once per repetition, so a
 * long enough value overflowed the stack (a 500). They are Go's RE2 patterns, matched as RE2 matches them.
 */
@DisplayName("values longer than any limit are refused or accepted, never a 500")
class LongValuesTest {

    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    @Test
    @DisplayName("a 200,000-character dotted name is 422, too long and not a DNS subdomain")
    void longName() {
        String name = "a.".repeat(100_000) + "a";
        ApiHarness.Reply r = api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"" + name + "\"}}");
        assertEquals(422, r.code(), r.text().substring(0, 300));
        assertTrue(r.body().path("message").asText().contains("must be no more than 253 characters"));
    }

    @Test
    @DisplayName("a 200,000-character image reference is defaulted and stored")
    void longImage() {
        String image = "a/".repeat(100_000) + "a";
        ApiHarness.Reply r = api.post("/api/v1/namespaces/default/pods", "{\"metadata\":{\"name\":\"long-image\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"" + image + "\"}]}}");
        assertEquals(201, r.code(), r.text().substring(0, 300));
        assertEquals("Always", r.body().path("spec").path("containers").path(0).path("imagePullPolicy").asText());
    }

    @Test
    @DisplayName("an @every schedule of 100,000 durations and a 200,000-character version are validated")
    void longScheduleAndVersion() {
        List<String> cron = Fixtures.create("""
                apiVersion: batch/v1
                kind: CronJob
                metadata: {name: cj, namespace: default}
                spec:
                  schedule: "@every %s"
                  jobTemplate:
                    spec:
                      template:
                        spec:
                          restartPolicy: OnFailure
                          containers: [{name: c, image: busybox}]
                """.formatted("1s".repeat(100_000)));
        assertEquals(List.of(), cron);
        List<String> slice = Fixtures.create(DraSlicesValidationTest.SLICE.replace("1.2.3-rc.1+build.5",
                "1.2.3-" + "a.".repeat(100_000) + "a"));
        assertTrue(slice.stream().anyMatch(e -> e.contains("attributes[driverVersion].version")), slice.toString());
    }
}
