package io.kapi.logs;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The process's log verbosity, klog's {@code -v} and {@code --vmodule}, changeable while running
 * ({@code PUT /debug/flags/v}). Kapi's loggers ({@code io.kapi}) get the JUL level of the highest
 * verbosity anyone asked for, so a disabled call costs one level check; the handler's {@link #filter()}
 * then drops what a class's own setting (its vmodule entry, else {@code -v}) does not show.
 */
public final class Verbosity {

    /** Held: java.util.logging keeps loggers weakly, and their levels would go with them. */
    private static final Logger KAPI = Logger.getLogger("io.kapi");
    private static final Logger JETTY = Logger.getLogger("org.eclipse.jetty");
    private static volatile int global;
    private static volatile List<VModule> modules = List.of();
    private static final Map<String, Integer> BY_LOGGER = new ConcurrentHashMap<>();

    private Verbosity() {
    }

    /** The current {@code -v}. */
    public static int get() {
        return global;
    }

    /** Sets {@code -v} and {@code --vmodule}: at start-up. */
    public static synchronized void configure(int v, List<VModule> vmodule) {
        modules = List.copyOf(vmodule);
        set(v);
    }

    /** Sets {@code -v}, keeping {@code --vmodule}, effective for the next log call. */
    public static synchronized void set(int v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative verbosity " + v);
        }
        global = v;
        BY_LOGGER.clear();
        int highest = modules.stream().mapToInt(VModule::verbosity).reduce(v, Math::max);
        KAPI.setLevel(KlogLevel.threshold(highest));
        // Jetty's own debug output is for -v=6 and up
        JETTY.setLevel(v >= 6 ? Level.FINE : Level.WARNING);
    }

    /** The verbosity the logger named {@code loggerName} logs at: its vmodule entry, else {@code -v}. */
    static int of(String loggerName) {
        if (modules.isEmpty()) {
            return global;
        }
        return BY_LOGGER.computeIfAbsent(loggerName, name -> modules.stream()
                .filter(m -> m.matches(name)).mapToInt(VModule::verbosity).findFirst().orElse(global));
    }

    /** Passes a record of Kapi's if its class's verbosity shows it; other libraries' records pass. */
    public static Filter filter() {
        return record -> {
            String name = record.getLoggerName();
            return name == null || !name.startsWith("io.kapi")
                    || KlogLevel.verbosity(record.getLevel()) <= of(name);
        };
    }
}
