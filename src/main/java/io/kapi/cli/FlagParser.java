package io.kapi.cli;

import java.util.List;

/**
 * Parses arguments the way kube-apiserver's flag library (pflag) does: {@code --name=value},
 * {@code --name value}, {@code -v=2}, {@code -v 2}, {@code -v2}; list flags take comma-separated
 * values and may repeat; {@code --} ends the flags. Kapi takes no positional arguments.
 */
final class FlagParser {

    /** What the command line asks for. */
    sealed interface Parsed {
    }

    /** @param ignored the flags given that Kapi accepts but does not act on, once each, in order */
    record Run(Options options, List<String> ignored) implements Parsed {
    }

    record Help() implements Parsed {
    }

    record Version() implements Parsed {
    }

    /** A bad command line; the message is printed after {@code Error: }. */
    static final class FlagException extends Exception {
        FlagException(String message) {
            super(message);
        }
    }

    private FlagParser() {
    }

    static Parsed parse(List<String> args) throws FlagException {
        Options.Builder builder = Options.builder();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--")) {
                if (i + 1 < args.size()) {
                    throw positional(args.subList(i + 1, args.size()));
                }
                break;
            }
            if (!arg.startsWith("-") || arg.equals("-")) {
                throw positional(args.subList(i, args.size()));
            }
            boolean isLong = arg.startsWith("--");
            String body = arg.substring(isLong ? 2 : 1);
            int eq = body.indexOf('=');
            String name = eq < 0 ? body : body.substring(0, eq);
            String value = eq < 0 ? null : body.substring(eq + 1);
            Flag flag;
            if (isLong) {
                flag = Flags.byName(name);
                if (flag == null) {
                    throw new FlagException("unknown flag: --" + name);
                }
            } else {
                flag = Flags.byShorthand(name.substring(0, 1));
                if (flag == null) {
                    throw new FlagException("unknown shorthand flag: '" + name.charAt(0) + "' in " + arg);
                }
                if (value == null && name.length() > 1) {
                    value = name.substring(1);
                }
            }
            if (flag.name().equals("help")) {
                return new Help();
            }
            if (flag.name().equals("version")) {
                return new Version();
            }
            if (value == null && flag.type().equals("bool")) {
                value = "true";
            }
            if (value == null) {
                if (i + 1 >= args.size()) {
                    throw new FlagException("flag needs an argument: " + (isLong ? "--" : "-") + name);
                }
                value = args.get(++i);
            }
            try {
                flag.apply().accept(builder, value);
                if (!flag.implemented()) {
                    builder.ignored.add("--" + flag.name());
                }
            } catch (IllegalArgumentException e) {
                throw new FlagException("invalid argument \"%s\" for \"%s\" flag: %s".formatted(value,
                        flag.shorthand() != null ? "-" + flag.shorthand() + ", --" + flag.name() : "--" + flag.name(),
                        e.getMessage()));
            }
        }
        Options options = builder.build();
        List<String> errors = options.validate();
        if (!errors.isEmpty()) {
            throw new FlagException(errors.size() == 1 ? errors.getFirst() : "[" + String.join(", ", errors) + "]");
        }
        return new Run(options, List.copyOf(builder.ignored));
    }

    private static FlagException positional(List<String> rest) {
        return new FlagException("\"kapi\" does not take any arguments, got " + rest);
    }
}
