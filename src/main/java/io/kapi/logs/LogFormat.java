package io.kapi.logs;

import java.util.List;
import java.util.logging.Formatter;

/** {@code --logging-format}: kube-apiserver's {@code text} (klog's lines) or {@code json}. */
public enum LogFormat {
    TEXT("text"),
    JSON("json");

    private final String flagValue;

    LogFormat(String flagValue) {
        this.flagValue = flagValue;
    }

    /**
     * The format named {@code value}.
     *
     * @throws IllegalArgumentException kube's words for an unknown format
     */
    public static LogFormat parse(String value) {
        for (LogFormat f : values()) {
            if (f.flagValue.equals(value)) {
                return f;
            }
        }
        throw new IllegalArgumentException("format: Invalid value: \"" + value + "\": Unsupported log format");
    }

    /** What kube-apiserver's {@code ValidateLoggingConfiguration} says of this format with these vmodules. */
    public List<String> validate(List<VModule> vmodule) {
        return this != TEXT && !vmodule.isEmpty()
                ? List.of("vmodule: Forbidden: Only supported for text log format") : List.of();
    }

    /** A new formatter writing one line per record in this format. */
    public Formatter formatter() {
        return switch (this) {
            case TEXT -> new TextFormatter();
            case JSON -> new JsonFormatter();
        };
    }

    @Override
    public String toString() {
        return flagValue;
    }
}
