package io.kapi.e2e.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A bounded fuzzing campaign in {@code bin/test}, against a real {@code bin/kapi} started as issue 29's attacker
 * met it ({@code --authorization-mode=Node,RBAC}, a token file, NodeRestriction), with a seed that changes every
 * run (set {@code kapi.fuzz.seed} to replay one). First {@code kapi.fuzz.seconds} (default 50) of mutated
 * requests of every verb, body format and patch type ({@link Campaign}): no 5xx, no hang (no answer in
 * {@code kapi.fuzz.hangSeconds}, 30 s here where the machine is shared; {@code bench/fuzz.sh} holds requests to
 * 5 s), no lost stream, no dead request thread; answers slower than 5 s are counted in the histogram. Then the
 * {@link Family families} of hostile requests, each its number of requests times {@code kapi.fuzz.scale}
 * (default 1), each held to what kube-apiserver answers. The report (counts, status histograms, failures) goes
 * to stdout and {@code target/fuzz-report.txt}.
 */
@DisplayName("fuzzing: mutated and hostile requests never get a 5xx, a hang, a dead thread or an answer kube would not give")
class FuzzIT {

    /** A family as the report names it, with how many requests it sends at scale 1 (about: an attempt may take a few). */
    private record Named(String name, int requests, Family family) {
    }

    private static final List<Named> FAMILIES = List.of(
            new Named("rbac-escalation", 300, new RbacEscalation()),
            new Named("token-revocation", 40, new TokenRevocation()),
            new Named("forged-tokens", 200, new ForgedTokens()),
            new Named("protobuf-bodies", 400, new ProtobufBodies()),
            new Named("websocket-upgrades", 120, new WebSocketUpgrades()),
            new Named("watch-limits", 150, new WatchLimits()),
            new Named("pathological-rules", 200, new PathologicalRules()));

    @Test
    @DisplayName("a bounded campaign of mutated requests, then each family of hostile ones")
    void campaign() throws Exception {
        long seed = Long.getLong("kapi.fuzz.seed", System.currentTimeMillis());
        Duration budget = Duration.ofSeconds(Long.getLong("kapi.fuzz.seconds", 50));
        double scale = Double.parseDouble(System.getProperty("kapi.fuzz.scale", "1"));
        Path tokens = Files.createTempFile("kapi-fuzz-tokens-", ".csv");
        Files.writeString(tokens, RbacEscalation.TOKEN + "," + RbacEscalation.USER + ",3001\n");
        try (KapiProcess kapi = new KapiProcess("fuzz", List.of("--authorization-mode=Node,RBAC",
                "--token-auth-file=" + tokens, "--enable-admission-plugins=NodeRestriction")).start();
             ApiClient api = ApiClient.of(kapi.kubeconfig())) {
            int hang = Integer.getInteger("kapi.fuzz.hangSeconds", 30);
            Campaign.Report report = new Campaign(kapi.kubeconfig(), hang).run(seed, 4, budget, 1_000_000);
            List<String> failures = new ArrayList<>(report.failures());
            StringBuilder text = new StringBuilder(report.toString()).append('\n');
            Target target = new Target(kapi.kubeconfig(), hang);
            for (Named family : FAMILIES) {
                Tally tally = new Tally(family.name());
                long t0 = System.nanoTime();
                family.family().run(target, new Random(seed ^ family.name().hashCode()),
                        (int) Math.max(1, Math.round(family.requests() * scale)), tally);
                text.append(tally).append(" in ").append((System.nanoTime() - t0) / 1_000_000).append(" ms\n");
                tally.failures().forEach(f -> failures.add(family.name() + ": " + f));
                tally.slow().stream().limit(10).forEach(s -> text.append("  slow: ").append(s).append('\n'));
            }
            List<String> deaths = Campaign.threadDeaths(kapi.logFile());
            text.append(String.join("\n", failures.stream().limit(30).toList())).append('\n')
                    .append(String.join("\n", deaths.stream().limit(30).toList())).append('\n');
            System.out.println(text);
            Path out = Path.of(System.getProperty("kapi.e2e.projectDir", ".")).resolve("target/fuzz-report.txt");
            Files.writeString(out, text, StandardCharsets.UTF_8);
            assertEquals(List.of(), failures.stream().limit(30).toList(), "seed " + seed + ": " + text);
            assertEquals(List.of(), deaths.stream().limit(30).toList(), "seed " + seed + ": request threads died");
            assertEquals(200, api.get("/readyz").status(), "the server is still ready");
        } finally {
            Files.deleteIfExists(tokens);
        }
    }
}
