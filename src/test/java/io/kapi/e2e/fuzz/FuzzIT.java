package io.kapi.e2e.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A bounded fuzzing campaign in {@code bin/test}: {@code kapi.fuzz.seconds} (default 50) of mutated requests of
 * every verb, body format and patch type against a real {@code bin/kapi}, with a seed that changes every run
 * (set {@code kapi.fuzz.seed} to replay one). No 5xx, no hang (no answer in {@code kapi.fuzz.hangSeconds},
 * 30 s here where the machine is shared; {@code bench/fuzz.sh} holds requests to 5 s), no lost stream, no dead
 * request thread; answers slower than 5 s are counted in the histogram.
 * The report (count, status histogram, 5xx) goes to stdout and {@code target/fuzz-report.txt}.
 */
@DisplayName("fuzzing: mutated requests never get a 5xx, a hang or a dead thread")
class FuzzIT {

    @Test
    @DisplayName("a bounded campaign of mutated requests")
    void campaign() throws Exception {
        long seed = Long.getLong("kapi.fuzz.seed", System.currentTimeMillis());
        Duration budget = Duration.ofSeconds(Long.getLong("kapi.fuzz.seconds", 50));
        try (KapiProcess kapi = new KapiProcess("fuzz", List.of()).start();
             ApiClient api = ApiClient.of(kapi.kubeconfig())) {
            int hang = Integer.getInteger("kapi.fuzz.hangSeconds", 30);
            Campaign.Report report = new Campaign(kapi.kubeconfig(), hang).run(seed, 4, budget, 1_000_000);
            List<String> deaths = Campaign.threadDeaths(kapi.logFile());
            String text = report + "\n" + String.join("\n", report.failures().stream().limit(30).toList())
                    + "\n" + String.join("\n", deaths.stream().limit(30).toList()) + "\n";
            System.out.println(text);
            Path out = Path.of(System.getProperty("kapi.e2e.projectDir", ".")).resolve("target/fuzz-report.txt");
            Files.writeString(out, text, StandardCharsets.UTF_8);
            assertEquals(List.of(), report.failures().stream().limit(30).toList(), "seed " + seed + ": " + report);
            assertEquals(List.of(), deaths.stream().limit(30).toList(), "seed " + seed + ": request threads died");
            assertEquals(200, api.get("/readyz").status(), "the server is still ready");
        }
    }
}
