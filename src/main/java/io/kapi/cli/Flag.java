package io.kapi.cli;

import java.util.function.BiConsumer;

/**
 * One command-line flag, described as {@code kube-apiserver --help} shows it.
 *
 * @param name the long name, without dashes
 * @param shorthand a one-letter alias ({@code v}), or null
 * @param section the help section, e.g. {@code Secure serving}
 * @param type the value type shown in help ({@code int}, {@code string}, {@code strings}, ...)
 * @param defaultValue the default shown in help, or null for none
 * @param usage what the flag does
 * @param implemented false for flags accepted for compatibility but not acted on yet; help says so
 * @param list true if repeating the flag appends (comma-separated lists)
 * @param apply sets the value on the builder; throws IllegalArgumentException for a malformed value
 */
record Flag(String name, String shorthand, String section, String type, String defaultValue, String usage,
            boolean implemented, boolean list, BiConsumer<Options.Builder, String> apply) {
}
