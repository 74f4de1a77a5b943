package io.kapi.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Function;

/**
 * What a plugin compiles from live configuration objects (webhooks, policies and their bindings): built
 * again only when one of the views moved, read without locks otherwise.
 *
 * @param <T> the compiled form
 */
public final class LiveCompiled<T> {

    private record Snapshot<T>(List<Long> generations, T value) {
    }

    private final List<LiveObjects> views;
    private final Function<List<List<ObjectNode>>, T> compiler;
    private volatile Snapshot<T> snapshot;

    /** @param compiler given the items of each view, in the order of {@code views} */
    public LiveCompiled(List<LiveObjects> views, Function<List<List<ObjectNode>>, T> compiler) {
        this.views = List.copyOf(views);
        this.compiler = compiler;
    }

    /** The compiled form of the views as they are now. */
    public T get() {
        Snapshot<T> s = snapshot;
        if (s == null || !current(s.generations())) {
            List<Long> generations = views.stream().map(LiveObjects::generation).toList();
            s = new Snapshot<>(generations, compiler.apply(views.stream().map(LiveObjects::items).toList()));
            snapshot = s;
        }
        return s.value();
    }

    /** Whether every view is still at the generation compiled (checked on each request: no allocation). */
    private boolean current(List<Long> generations) {
        for (int i = 0; i < views.size(); i++) {
            if (views.get(i).generation() != generations.get(i)) {
                return false;
            }
        }
        return true;
    }
}
