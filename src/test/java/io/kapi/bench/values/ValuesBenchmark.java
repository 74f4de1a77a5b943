package io.kapi.bench.values;

import io.kapi.machinery.labels.LabelSelector;
import io.kapi.machinery.quantity.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The hot uses of the value types: label selector matching (what the watch cache runs for every event
 * and listed object, on the cached label maps) and parsing (every list or watch with a selector); quantity
 * canonicalisation (defaulting of every resource list on a pod write), the decode check and parsing (for
 * validation's comparisons). Times are per selector match, per parse, per quantity.
 *
 * <p>Run: {@code bench/values.sh} (this benchmark; with {@code --baseline=DIR}, also the same workloads
 * against an older tree, side by side).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ValuesBenchmark {

    /** The workloads, shared with the baseline run so both measure the same inputs. */
    public static final String SELECTOR = "app=web,tier in (front,back),env!=dev,!canary";
    public static final int OBJECTS = 1000;
    public static final String[] QUANTITIES = {"100m", "250m", "0.5", "1", "2", "128Mi", "256Mi", "1Gi", "1.5Gi",
        "512M", "1e3", "10Gi"};

    private List<Map<String, String>> labels;
    private LabelSelector selector;

    @Setup
    public void setUp() {
        labels = labelSets();
        selector = LabelSelector.parse(SELECTOR);
    }

    /** Pod-like label sets: a third web, half front, some canaries, each with a pod-template-hash. */
    public static List<Map<String, String>> labelSets() {
        List<Map<String, String>> sets = new ArrayList<>(OBJECTS);
        String[] apps = {"web", "db", "cache"};
        String[] tiers = {"front", "back", "mid"};
        for (int i = 0; i < OBJECTS; i++) {
            Map<String, String> m = new TreeMap<>();
            m.put("app", apps[i % 3]);
            m.put("tier", tiers[(i / 3) % 3]);
            m.put("env", i % 5 == 0 ? "dev" : "prod");
            m.put("pod-template-hash", Integer.toHexString(0x5f4d3c2b + i * 7919));
            if (i % 7 == 0) {
                m.put("canary", "true");
            }
            sets.add(m);
        }
        return sets;
    }

    @Benchmark
    @OperationsPerInvocation(OBJECTS)
    public int selectorMatch() {
        int matched = 0;
        for (Map<String, String> m : labels) {
            if (selector.matches(m)) {
                matched++;
            }
        }
        return matched;
    }

    @Benchmark
    public Object selectorParse() {
        return LabelSelector.parse(SELECTOR);
    }

    @Benchmark
    @OperationsPerInvocation(12)
    public void quantityCanonical(Blackhole bh) {
        for (String q : QUANTITIES) {
            bh.consume(Quantity.canonical(q, 3));
        }
    }

    @Benchmark
    @OperationsPerInvocation(12)
    public void quantityCheck(Blackhole bh) {
        for (String q : QUANTITIES) {
            bh.consume(Quantity.check(q));
        }
    }

    @Benchmark
    @OperationsPerInvocation(12)
    public void quantityParse(Blackhole bh) {
        for (String q : QUANTITIES) {
            bh.consume(Quantity.parseOrNull(q));
        }
    }
}
