package io.kapi.logs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One {@code --vmodule} setting, {@code pattern=N}: classes whose simple name (klog: the file's name
 * without {@code .go}; in Java the class is the file) matches the glob get verbosity N. A pattern with
 * a dot is matched against the whole logger name instead, e.g. {@code io.kapi.storage.*=4}.
 */
public record VModule(String pattern, int verbosity) {

    /**
     * Parses a {@code --vmodule} value, as klog does.
     *
     * @throws IllegalArgumentException klog's "syntax error" for a malformed list, or a negative level
     */
    public static List<VModule> parse(String value) {
        List<VModule> modules = new ArrayList<>();
        if (value == null || value.isEmpty()) {
            return List.of();
        }
        for (String pair : value.split(",")) {
            int eq = pair.indexOf('=');
            if (pair.isEmpty() || eq <= 0 || eq == pair.length() - 1) {
                throw new IllegalArgumentException("syntax error: expect comma-separated list of filename=N");
            }
            int level;
            try {
                level = Integer.parseInt(pair.substring(eq + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("syntax error: expect comma-separated list of filename=N");
            }
            if (level < 0) {
                throw new IllegalArgumentException("negative value for vmodule level");
            }
            modules.add(new VModule(pair.substring(0, eq), level));
        }
        return List.copyOf(modules);
    }

    /** Whether this setting covers the logger named {@code loggerName} (a class name). */
    boolean matches(String loggerName) {
        String name = pattern.contains(".") ? loggerName : simpleName(loggerName);
        return glob(pattern).matcher(name).matches();
    }

    private static String simpleName(String loggerName) {
        String simple = loggerName.substring(loggerName.lastIndexOf('.') + 1);
        int inner = simple.indexOf('$');
        return inner < 0 ? simple : simple.substring(0, inner);
    }

    private static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
