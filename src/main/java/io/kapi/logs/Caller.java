package io.kapi.logs;

import java.util.Optional;
import java.util.Set;

/**
 * klog's {@code caller}: the file and line of the log call, {@code filter/RequestLog.java:42} (the
 * package's last name, as kube's {@code httplog/httplog.go:134} has its directory). Found by walking
 * the stack when the line is written, so it costs nothing for calls below the verbosity.
 */
final class Caller {

    private static final StackWalker WALKER = StackWalker.getInstance();
    private static final Set<String> SKIPPED = Set.of("java.", "jdk.", "sun.", "org.slf4j.", "io.kapi.logs.KeyValues",
            "io.kapi.logs.Caller", "io.kapi.logs.TextFormatter", "io.kapi.logs.JsonFormatter",
            "io.kapi.cli.Logging");

    private Caller() {
    }

    static String find() {
        Optional<StackWalker.StackFrame> frame = WALKER.walk(frames -> frames
                .filter(f -> SKIPPED.stream().noneMatch(f.getClassName()::startsWith)).findFirst());
        return frame.map(Caller::format).orElse("");
    }

    private static String format(StackWalker.StackFrame f) {
        String className = f.getClassName();
        int lastDot = className.lastIndexOf('.');
        String pkg = lastDot < 0 ? "" : className.substring(0, lastDot);
        String dir = pkg.substring(pkg.lastIndexOf('.') + 1);
        String file = f.getFileName() != null ? f.getFileName() : className.substring(lastDot + 1) + ".java";
        return (dir.isEmpty() ? "" : dir + "/") + file + ":" + f.getLineNumber();
    }
}
