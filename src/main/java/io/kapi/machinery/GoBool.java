package io.kapi.machinery;

import java.util.Optional;

/**
 * The two ways kube-apiserver reads a boolean from text, in one place.
 *
 * <ul>
 *   <li>{@link #parse} is Go's {@code strconv.ParseBool}: {@code 1 t T TRUE true True} and
 *       {@code 0 f F FALSE false False}, nothing else. Command-line flags (pflag) and the
 *       {@code pretty} query parameter use it; a flag with another value is an error, {@code pretty}
 *       with another value is simply not pretty.</li>
 *   <li>{@link #query} is how kube's parameter codec converts the boolean fields of an options kind
 *       from the query string ({@code ListOptions.watch}, {@code allowWatchBookmarks},
 *       {@code sendInitialEvents}, {@code PatchOptions.force}, {@code DeleteOptions.orphanDependents},
 *       ...: apimachinery's {@code Convert_Slice_string_To_bool}): only {@code 0} and {@code false} in
 *       any case are false; every other value, the empty one included ({@code ?watch}), is true. It
 *       never fails, so no value of such a parameter is a 400 on kube-apiserver either. The official
 *       Python client's {@code watch=True} is a watch.</li>
 * </ul>
 */
public final class GoBool {

    private GoBool() {
    }

    /** Go's {@code strconv.ParseBool}; empty for any other text (null included). */
    public static Optional<Boolean> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        return switch (text) {
            case "1", "t", "T", "TRUE", "true", "True" -> Optional.of(true);
            case "0", "f", "F", "FALSE", "false", "False" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    /**
     * A boolean query parameter of an options kind, as kube's parameter codec reads it.
     *
     * @param value the parameter's first value, null when it is absent
     * @param absent what an absent parameter means
     */
    public static boolean query(String value, boolean absent) {
        if (value == null) {
            return absent;
        }
        return !(value.equals("0") || value.equalsIgnoreCase("false"));
    }

    /** A {@code *bool} query parameter: null when absent, else as {@link #query(String, boolean)}. */
    public static Boolean optionalQuery(String value) {
        return value == null ? null : query(value, false);
    }
}
