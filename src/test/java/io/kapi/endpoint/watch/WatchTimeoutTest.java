package io.kapi.endpoint.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kapi.harness.ApiHarness;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code timeoutSeconds} at the ends of its range: kube-apiserver multiplies it into Go's int64 nanoseconds,
 * which wrap around; a duration that wrapped to a negative one (or a negative {@code timeoutSeconds}) has
 * passed already, and the watch answers 200 and ends at once.
 */
@DisplayName("a watch's timeoutSeconds at the limits of int64")
class WatchTimeoutTest {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    @ParameterizedTest(name = "timeoutSeconds={0}")
    @ValueSource(strings = {"92233720368", "9223372036854775807", "-1", "-9223372036"})
    @DisplayName("a timeoutSeconds whose nanoseconds wrap to a negative duration, or a negative one, ends the watch at once with 200")
    void wrapsAsGo(String seconds) {
        ApiHarness.Reply reply = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> api.get(CMS + "?watch=true&timeoutSeconds=" + seconds));
        assertEquals(200, reply.code(), reply.text());
        assertEquals("", reply.text());
    }

    @ParameterizedTest(name = "timeoutSeconds={0}")
    @ValueSource(strings = {"9223372036854775808", "1e3", "x"})
    @DisplayName("a timeoutSeconds that is not an int64 is a bad request")
    void notAnInt64(String seconds) {
        assertEquals(400, api.get(CMS + "?watch=true&timeoutSeconds=" + seconds).code());
    }
}
