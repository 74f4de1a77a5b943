package io.kapi.cli;

import io.kapi.logs.LogFormat;
import io.kapi.logs.VModule;
import java.time.Duration;
import java.util.List;

/**
 * The log flags besides {@code -v}: {@code --logging-format}, {@code --vmodule} and
 * {@code --log-flush-frequency}, with kube-apiserver's defaults.
 */
record LogOptions(LogFormat format, List<VModule> vmodule, Duration flushFrequency) {

    static final LogOptions DEFAULT = new LogOptions(LogFormat.TEXT, List.of(), Duration.ofSeconds(5));

    LogOptions {
        vmodule = List.copyOf(vmodule);
    }

    LogOptions withFormat(LogFormat f) {
        return new LogOptions(f, vmodule, flushFrequency);
    }

    LogOptions withVModule(List<VModule> v) {
        return new LogOptions(format, v, flushFrequency);
    }

    LogOptions withFlushFrequency(Duration d) {
        return new LogOptions(format, vmodule, d);
    }

    /** kube-apiserver's {@code ValidateLoggingConfiguration}, as flag errors. */
    List<String> validate() {
        List<String> errors = new java.util.ArrayList<>(format.validate(vmodule));
        if (flushFrequency.isNegative() || flushFrequency.isZero()) {
            errors.add("--log-flush-frequency must be greater than 0");
        }
        return errors;
    }
}
