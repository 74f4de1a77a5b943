package io.kapi.cli;

import java.util.List;

/** The text of {@code kapi --help}, laid out like {@code kube-apiserver --help}. */
final class Usage {

    private static final int WRAP = 100;

    private Usage() {
    }

    static String text() {
        StringBuilder out = new StringBuilder("""
                Kapi is a Kubernetes API server written in Java. It serves the Kubernetes API (1.34)
                over HTTPS with the same paths, semantics and flags as kube-apiserver, so kubectl and
                Kubernetes clients work unchanged. With no flags it keeps its data in ./kapi-data and
                makes its own certificates and an admin kubeconfig there.

                Usage:
                  kapi [flags]
                """);
        for (String section : Flags.SECTIONS) {
            List<Flag> flags = Flags.ALL.stream().filter(f -> f.section().equals(section)).toList();
            if (flags.isEmpty()) {
                continue;
            }
            out.append('\n').append(section).append(" flags:\n\n");
            int width = flags.stream().mapToInt(f -> left(f).length()).max().orElse(0) + 3;
            for (Flag flag : flags) {
                String left = left(flag);
                out.append(left).append(" ".repeat(width - left.length()));
                out.append(wrap(description(flag), width)).append('\n');
            }
        }
        return out.toString();
    }

    private static String left(Flag flag) {
        String names = flag.shorthand() != null
                ? "  -" + flag.shorthand() + ", --" + flag.name()
                : "      --" + flag.name();
        return flag.type().isEmpty() || flag.type().equals("bool") ? names : names + " " + flag.type();
    }

    private static String description(Flag flag) {
        String text = flag.implemented() ? flag.usage()
                : flag.usage() + " (not implemented by Kapi; accepted and ignored)";
        return flag.defaultValue() == null ? text : text + " (default " + flag.defaultValue() + ")";
    }

    /** Wraps at word boundaries, indenting continuation lines to the description column. */
    private static String wrap(String text, int indent) {
        StringBuilder out = new StringBuilder();
        int column = indent;
        for (String word : text.split(" ")) {
            if (column > indent && column + 1 + word.length() > Math.max(WRAP, indent + 40)) {
                out.append('\n').append(" ".repeat(indent));
                column = indent;
            } else if (column > indent) {
                out.append(' ');
                column++;
            }
            out.append(word);
            column += word.length();
        }
        return out.toString();
    }
}
