package io.kapi.admission;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One request's reinvocation context (kube's {@code admission.ReinvocationContext}): the mutating
 * plugins run once; when one of them asks ({@link #requestReinvoke}: a webhook or policy changed the
 * object after a reinvocable one had run), the chain runs them all once more with {@link #isReinvoke()}
 * true, and the reinvocable plugins then run again only what their state says needs it. Each plugin
 * keeps its state under its name. Not thread-safe: one request's admission runs on one thread.
 */
public final class Reinvocation {

    private final Map<String, Object> states = new HashMap<>();
    private boolean reinvoke;
    private boolean requested;

    /** Whether this is the second pass. */
    public boolean isReinvoke() {
        return reinvoke;
    }

    /** Asks for a second pass of the mutating plugins (ignored during the second pass: there is no third). */
    public void requestReinvoke() {
        requested = true;
    }

    boolean requested() {
        return requested && !reinvoke;
    }

    void startReinvoke() {
        reinvoke = true;
    }

    /** The state {@code plugin} keeps across the passes, made by {@code initial} on first use. */
    @SuppressWarnings("unchecked")
    public <T> T state(String plugin, Supplier<T> initial) {
        return (T) states.computeIfAbsent(plugin, p -> initial.get());
    }
}
