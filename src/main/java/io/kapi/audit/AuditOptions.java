package io.kapi.audit;

import io.kapi.machinery.GoBool;
import io.kapi.machinery.GoDuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code --audit-*} flags as given, by name without the {@code audit-} prefix
 * ({@code policy-file}, {@code log-path}, {@code webhook-batch-max-size}, ...), read with kube-apiserver's
 * defaults for the log and the webhook backend. Immutable; {@link #validate()} words problems as
 * kube-apiserver's {@code AuditOptions.Validate}.
 */
public record AuditOptions(Map<String, String> values) {

    public static final AuditOptions DEFAULT = new AuditOptions(Map.of());
    static final List<String> MODES = List.of("batch", "blocking", "blocking-strict");

    public AuditOptions {
        values = Map.copyOf(values);
    }

    /** These options with flag {@code name} (without {@code audit-}) set to {@code value}. */
    public AuditOptions with(String name, String value) {
        Map<String, String> m = new TreeMap<>(values);
        m.put(name, value);
        return new AuditOptions(m);
    }

    String get(String name) {
        return values.get(name);
    }

    Path policyFile() {
        String v = get("policy-file");
        return v == null || v.isEmpty() ? null : Path.of(v);
    }

    String logPath() {
        String v = get("log-path");
        return v == null || v.isEmpty() ? null : v;
    }

    Path webhookConfigFile() {
        String v = get("webhook-config-file");
        return v == null || v.isEmpty() ? null : Path.of(v);
    }

    String text(String name, String fallback) {
        String v = get(name);
        return v == null ? fallback : v;
    }

    int integer(String name, int fallback) {
        String v = get(name);
        return v == null ? fallback : Integer.parseInt(v.trim());
    }

    long longValue(String name, long fallback) {
        String v = get(name);
        return v == null ? fallback : Long.parseLong(v.trim());
    }

    boolean bool(String name, boolean fallback) {
        String v = get(name);
        return v == null ? fallback : GoBool.parse(v).orElse(fallback);
    }

    Duration duration(String name, Duration fallback) {
        String v = get(name);
        return v == null ? fallback : GoDuration.parse(v);
    }

    double real(String name, double fallback) {
        String v = get(name);
        return v == null ? fallback : Double.parseDouble(v.trim());
    }

    /** {@code log} or {@code webhook}'s mode: blocking for the log, batch for the webhook by default. */
    String mode(String plugin) {
        return text(plugin + "-mode", plugin.equals("log") ? "blocking" : "batch");
    }

    /** The batch settings of {@code plugin}, kube's defaults: the log writes each event as it comes, unthrottled. */
    BufferedBackend.Config batch(String plugin) {
        boolean log = plugin.equals("log");
        String p = plugin + "-batch-";
        boolean throttle = bool(p + "throttle-enable", !log);
        return new BufferedBackend.Config(integer(p + "buffer-size", 10000), integer(p + "max-size", log ? 1 : 400),
                duration(p + "max-wait", Duration.ofSeconds(30)), throttle ? real(p + "throttle-qps", 10) : 0,
                integer(p + "throttle-burst", 15), !log);
    }

    /** Every problem, worded for the command line; empty when valid. */
    public List<String> validate() {
        List<String> errors = new ArrayList<>();
        for (String plugin : List.of("log", "webhook")) {
            String mode = mode(plugin);
            if (!MODES.contains(mode)) {
                errors.add("invalid audit %s mode %s, allowed modes are \"%s\"".formatted(plugin, mode,
                        String.join(",", MODES)));
            }
            String version = text(plugin + "-version", "audit.k8s.io/v1");
            if (!version.equals("audit.k8s.io/v1")) {
                errors.add("invalid audit %s version %s, allowed versions are \"audit.k8s.io/v1\"".formatted(plugin, version));
            }
            try {
                BufferedBackend.Config b = batch(plugin);
                if (b.bufferSize() <= 0) {
                    errors.add("invalid audit batch %s buffer size %d, must be a positive number".formatted(plugin, b.bufferSize()));
                }
                if (b.maxBatchSize() <= 0) {
                    errors.add("invalid audit batch %s max batch size %d, must be a positive number".formatted(plugin, b.maxBatchSize()));
                }
                if (bool(plugin + "-batch-throttle-enable", !plugin.equals("log")) && b.qps() <= 0) {
                    errors.add("invalid audit batch %s throttle QPS %s, must be a positive number".formatted(plugin, b.qps()));
                }
                if (integer(plugin + "-truncate-max-event-size", 102400) <= 0) {
                    errors.add("invalid audit truncate %s max event size %s, must be a positive number"
                            .formatted(plugin, get(plugin + "-truncate-max-event-size")));
                }
            } catch (RuntimeException e) {
                errors.add("--audit-%s-*: %s".formatted(plugin, e.getMessage()));
            }
        }
        String format = text("log-format", "json");
        if (!format.equals("json") && !format.equals("legacy")) {
            errors.add("invalid audit log format %s, allowed formats are \"legacy,json\"".formatted(format));
        }
        for (String n : List.of("maxage", "maxbackup", "maxsize")) {
            if (integer("log-" + n, 0) < 0) {
                errors.add("--audit-log-%s %s can't be a negative number".formatted(n, get("log-" + n)));
            }
        }
        return errors;
    }
}
