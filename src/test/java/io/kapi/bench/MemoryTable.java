package io.kapi.bench;

import java.util.List;
import java.util.function.Function;

/** Renders {@link MemoryBench} results side by side: one column per checkout, one row per figure. */
final class MemoryTable {

    private MemoryTable() {
    }

    static String render(List<MemoryBench.Result> results) {
        StringBuilder out = new StringBuilder();
        row(out, "", results, MemoryBench.Result::name);
        row(out, "first start to /readyz (ms)", results, r -> String.valueOf(r.firstStart().toMillis()));
        row(out, "RSS idle, empty (MiB)", results, r -> mib(r.rssIdleEmptyKiB()));
        row(out, "restart p50, empty (ms)", results, r -> String.valueOf(r.restartEmptyP50().toMillis()));
        phase(out, "creates", results, MemoryBench.Result::creates);
        phase(out, "gets", results, MemoryBench.Result::gets);
        phase(out, "patches", results, MemoryBench.Result::patches);
        phase(out, "lists (whole ns)", results, MemoryBench.Result::lists);
        row(out, "watch events/s delivered", results, r -> String.format("%.0f", r.watch().perSecond()));
        row(out, "watch events lost", results, r -> String.valueOf(r.watch().failed()));
        row(out, "RSS right after load (MiB)", results, r -> mib(r.rssAfterLoadKiB()));
        row(out, "RSS idle, small (MiB)", results, r -> mib(r.rssSmallKiB()));
        row(out, "RSS idle, large (MiB)", results, r -> mib(r.rssLargeKiB()));
        row(out, "restart p50, large (ms)", results, r -> String.valueOf(r.restartLargeP50().toMillis()));
        return out.toString();
    }

    private static void phase(StringBuilder out, String label, List<MemoryBench.Result> results,
                              Function<MemoryBench.Result, Phase> phase) {
        row(out, label + "/s", results, r -> String.format("%.0f", phase.apply(r).perSecond()));
        row(out, label + " p50 / p99 (ms)", results, r -> String.format("%.1f / %.1f",
                phase.apply(r).medianMillis(), phase.apply(r).p99Millis()));
        row(out, label + " failed", results, r -> String.valueOf(phase.apply(r).failed()));
    }

    private static void row(StringBuilder out, String label, List<MemoryBench.Result> results,
                            Function<MemoryBench.Result, String> cell) {
        out.append(String.format("%-30s", label));
        results.forEach(r -> out.append(String.format("%16s", cell.apply(r))));
        out.append('\n');
    }

    private static String mib(long kib) {
        return String.format("%.0f", kib / 1024.0);
    }
}
