package io.kapi.bench;

import java.util.List;
import java.util.function.Function;

/** Renders the results side by side: one column per backend, one row per figure. */
final class Table {

    private Table() {
    }

    static String render(List<E2eBench.Result> results) {
        StringBuilder out = new StringBuilder();
        row(out, "", results, E2eBench.Result::backend);
        row(out, "first start to /readyz (ms)", results, r -> String.valueOf(r.startToReady().toMillis()));
        row(out, "RSS when ready (MiB)", results, r -> mib(r.rssReadyKiB()));
        row(out, "creates/s", results, r -> String.format("%.0f", r.creates().perSecond()));
        row(out, "create median (ms)", results, r -> String.format("%.2f", r.creates().medianMillis()));
        row(out, "create p99 (ms)", results, r -> String.format("%.2f", r.creates().p99Millis()));
        row(out, "create ok / failed", results, r -> r.creates().ok() + " / " + r.creates().failed());
        row(out, "gets/s", results, r -> String.format("%.0f", r.gets().perSecond()));
        row(out, "get median (ms)", results, r -> String.format("%.2f", r.gets().medianMillis()));
        row(out, "get p99 (ms)", results, r -> String.format("%.2f", r.gets().p99Millis()));
        row(out, "get ok / failed", results, r -> r.gets().ok() + " / " + r.gets().failed());
        row(out, "watch events/s", results, r -> String.format("%.0f", r.watch().perSecond()));
        row(out, "watch delivery median (ms)", results, r -> String.format("%.2f", r.watch().medianMillis()));
        row(out, "watch delivery p99 (ms)", results, r -> String.format("%.2f", r.watch().p99Millis()));
        row(out, "watch delivered / missed", results, r -> r.watch().ok() + " / " + r.watch().failed());
        row(out, "RSS after creates (MiB)", results, r -> mib(r.rssAfterKiB()));
        row(out, "configmaps stored", results, r -> String.valueOf(r.objects()));
        row(out, "restart to /readyz ok (ms)", results, r -> String.valueOf(r.restartToReady().toMillis()));
        return out.toString();
    }

    private static void row(StringBuilder out, String label, List<E2eBench.Result> results,
                            Function<E2eBench.Result, String> cell) {
        out.append(String.format("%-26s", label));
        results.forEach(r -> out.append(String.format("%14s", cell.apply(r))));
        out.append('\n');
    }

    private static String mib(long kib) {
        return String.format("%.0f", kib / 1024.0);
    }
}
