package io.kapi.machinery.features;

import io.kapi.machinery.GoBool;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver 1.34's feature gates as {@code --feature-gates} sets them: every registered gate with
 * its default, stage and lock (the data file {@code /features/kube-1.34.tsv}), then the flag's
 * {@code Gate=true,Other=false} pairs (an optional {@code kube:} component prefix, as 1.34 accepts),
 * with {@code AllAlpha} and {@code AllBeta} switching every unlocked alpha or beta gate not named
 * itself. Checked once at start ({@link #parse}), as kube does; asked by name at wiring time.
 * Immutable and thread-safe.
 */
public final class FeatureGates {

    private static final System.Logger LOG = System.getLogger(FeatureGates.class.getName());
    private static final String DATA = "/features/kube-1.34.tsv";
    private static final String ALL_ALPHA = "AllAlpha";
    private static final String ALL_BETA = "AllBeta";

    /** A gate's state at 1.34. */
    record Spec(boolean enabledByDefault, String stage, boolean locked) {
    }

    private static final class Known {
        static final Map<String, Spec> GATES = load();
    }

    /** Every gate at its default. */
    public static final FeatureGates DEFAULT = new FeatureGates(Map.of());

    private final Map<String, Boolean> set;

    private FeatureGates(Map<String, Boolean> set) {
        this.set = Collections.unmodifiableMap(new LinkedHashMap<>(set));
    }

    /**
     * The gates of one or more {@code --feature-gates} values (later values win), as kube's
     * {@code featureGate.Set} reads them.
     *
     * @throws IllegalArgumentException worded as kube-apiserver's: {@code unrecognized feature gate: X},
     *         {@code missing bool value for X}, {@code invalid value of X=y, err: ...},
     *         {@code cannot set feature gate X to false, feature is locked to true}
     */
    public static FeatureGates parse(List<String> values) {
        Map<String, Boolean> set = new LinkedHashMap<>();
        for (String value : values) {
            for (String pair : value.split(",")) {
                if (pair.isEmpty()) {
                    continue;
                }
                String[] kv = pair.split("=", 2);
                String key = component(kv[0].trim());
                if (kv.length != 2) {
                    throw new IllegalArgumentException("missing bool value for " + key);
                }
                String v = kv[1].trim();
                boolean on = GoBool.parse(v).orElseThrow(() -> new IllegalArgumentException(
                        "invalid value of " + key + "=" + v + ", err: strconv.ParseBool: parsing \"" + v
                                + "\": invalid syntax"));
                set.put(key, on);
            }
        }
        for (Map.Entry<String, Boolean> e : set.entrySet()) {
            check(e.getKey(), e.getValue());
        }
        return new FeatureGates(set);
    }

    /** {@code kube:Gate} is {@code Gate}; another component is not one kube-apiserver has. */
    private static String component(String key) {
        int colon = key.indexOf(':');
        if (colon < 0) {
            return key;
        }
        String component = key.substring(0, colon);
        if (!component.equals("kube")) {
            throw new IllegalArgumentException("component not registered: " + component);
        }
        return key.substring(colon + 1).trim();
    }

    private static void check(String key, boolean value) {
        if (key.equals(ALL_ALPHA) || key.equals(ALL_BETA)) {
            return;
        }
        Spec spec = Known.GATES.get(key);
        if (spec == null) {
            throw new IllegalArgumentException("unrecognized feature gate: " + key);
        }
        if (spec.locked() && spec.enabledByDefault() != value) {
            throw new IllegalArgumentException("cannot set feature gate " + key + " to " + value
                    + ", feature is locked to " + spec.enabledByDefault());
        }
        if (spec.stage().equals("Deprecated") || spec.stage().equals("GA")) {
            LOG.log(System.Logger.Level.WARNING, "Setting {0} feature gate {1}={2}. It will be removed in a future "
                    + "release.", spec.stage().equals("GA") ? "GA" : "deprecated", key, value);
        }
    }

    /**
     * Whether {@code gate} is on: as set, else as {@code AllAlpha}/{@code AllBeta} set its stage, else its
     * default.
     *
     * @throws IllegalArgumentException for a gate kube-apiserver 1.34 does not have (a bug in the caller)
     */
    public boolean enabled(String gate) {
        Spec spec = Known.GATES.get(gate);
        if (spec == null) {
            throw new IllegalArgumentException("feature \"" + gate + "\" is not registered in FeatureGate");
        }
        Boolean explicit = set.get(gate);
        if (explicit != null) {
            return explicit;
        }
        if (!spec.locked()) {
            String all = spec.stage().equals("Alpha") ? ALL_ALPHA : spec.stage().equals("Beta") ? ALL_BETA : null;
            if (all != null && set.containsKey(all)) {
                return set.get(all);
            }
        }
        return spec.enabledByDefault();
    }

    /** The gates given on the command line, in order (for the start-up log). */
    public Map<String, Boolean> explicit() {
        return set;
    }

    private static Map<String, Spec> load() {
        try (InputStream in = FeatureGates.class.getResourceAsStream(DATA)) {
            if (in == null) {
                throw new IllegalStateException("missing class-path resource " + DATA);
            }
            Map<String, Spec> gates = new LinkedHashMap<>();
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                if (f.length != 4) {
                    throw new IllegalStateException("bad line in " + DATA + ": " + line);
                }
                gates.put(f[0], new Spec(Boolean.parseBoolean(f[1]), f[2], Boolean.parseBoolean(f[3])));
            }
            return Collections.unmodifiableMap(gates);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every registered gate's stage as {@code kubernetes_feature_enabled} labels it ({@code ALPHA}, {@code BETA},
     * {@code DEPRECATED}, "" for GA) and whether it is on, by name.
     */
    public Map<String, Map.Entry<String, Boolean>> states() {
        Map<String, Map.Entry<String, Boolean>> out = new LinkedHashMap<>();
        Known.GATES.forEach((name, spec) -> out.put(name, Map.entry(
                spec.stage().equals("GA") ? "" : spec.stage().toUpperCase(java.util.Locale.ROOT), enabled(name))));
        return out;
    }

    /** The names of every registered gate (for tests). */
    static List<String> names() {
        return new ArrayList<>(Known.GATES.keySet());
    }

    @Override
    public String toString() {
        return set.toString();
    }
}
