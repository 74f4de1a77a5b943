package io.kapi.request;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The warnings a request collects on its way (schema, strategy, admission, deprecation), sent back as
 * {@code Warning: 299 - "..."} headers. Duplicates are dropped, as kube-apiserver's recorder does,
 * and so is anything beyond {@link #MAX_WARNINGS}. Thread-safe: admission may add from several threads.
 */
public final class WarningSink {

    /** A bound on what one request can make the server remember. */
    static final int MAX_WARNINGS = 256;

    private final Set<String> warnings = new LinkedHashSet<>();

    public synchronized void add(String warning) {
        if (warnings.size() < MAX_WARNINGS && warning != null && !warning.isBlank()) {
            warnings.add(warning);
        }
    }

    public void addAll(List<String> list) {
        list.forEach(this::add);
    }

    /** The warnings so far, in the order first added. */
    public synchronized List<String> list() {
        return warnings.isEmpty() ? List.of() : List.copyOf(warnings);
    }
}
