package io.kapi.cli;

import io.kapi.machinery.GoBool;
import io.kapi.machinery.GoDuration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Every flag of kube-apiserver 1.34, from the project's data file {@code /cli/kube-apiserver-flags.tsv}
 * (names, types, defaults, sections and help text as kube-apiserver gives them). Kapi does not act on
 * these: each is accepted with a value of its type (a bool as {@code strconv.ParseBool}, an int, a
 * float, a duration, an IP; other types as given), and recorded as ignored, so that a kube-apiserver
 * command line (kubeadm's static pod, a systemd unit) starts Kapi. {@link Flags} overrides the ones
 * Kapi acts on.
 */
final class KubeFlags {

    private static final String RESOURCE = "/cli/kube-apiserver-flags.tsv";
    private static final Set<String> LIST_TYPES = Set.of("strings", "stringToString", "namedCertKey",
            "colonSeparatedMultimapStringString", "<comma-separated 'key=value' pairs>");

    private KubeFlags() {
    }

    /** The flags of the data file, in its order. */
    static List<Flag> load() {
        try (InputStream in = KubeFlags.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            List<Flag> flags = new ArrayList<>();
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = lines.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    flags.add(flag(line.split("\t", -1)));
                }
            }
            return List.copyOf(flags);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Flag flag(String[] f) {
        if (f.length != 5) {
            throw new IllegalStateException("bad line in " + RESOURCE + ": " + String.join("|", f));
        }
        String name = f[0];
        String type = f[1];
        return new Flag(name, name.equals("v") ? "v" : null, f[3], type, f[2].isEmpty() ? null : f[2], f[4],
                false, LIST_TYPES.contains(type), ignored(name, type));
    }

    /** Checks the value has the flag's type; the parser records the flag as given and ignored. */
    private static BiConsumer<Options.Builder, String> ignored(String name, String type) {
        return (builder, value) -> check(type, value);
    }

    /** pflag's parsing of a value of {@code type}, with Go's wording for a bad one. */
    static void check(String type, String value) {
        switch (type) {
            case "bool" -> GoBool.parse(value).orElseThrow(() -> new IllegalArgumentException(
                    "strconv.ParseBool: parsing \"" + value + "\": invalid syntax"));
            case "int", "Level" -> {
                try {
                    Long.parseLong(value.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("strconv.ParseInt: parsing \"" + value + "\": invalid syntax");
                }
            }
            case "float" -> {
                try {
                    Double.parseDouble(value.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("strconv.ParseFloat: parsing \"" + value + "\": invalid syntax");
                }
            }
            case "duration" -> GoDuration.parse(value);
            case "ip" -> Flags.ip(value);
            default -> {
                // strings, maps and the like: any text
            }
        }
    }
}
