package io.kapi.admission;

/**
 * A mutating plugin that may be run a second time in one request (webhooks and mutating policies with
 * {@code reinvocationPolicy: IfNeeded}), as kube's reinvocation does it: see {@link Reinvocation}.
 */
public interface ReinvocablePlugin extends MutatingPlugin {

    /**
     * Mutates as {@link #admit(Attributes)}; on the second pass ({@code reinvocation.isReinvoke()}) runs
     * again only the hooks that need it.
     */
    void admit(Attributes attributes, Reinvocation reinvocation);

    /** One pass without a chain around it: no reinvocation. */
    @Override
    default void admit(Attributes attributes) {
        admit(attributes, new Reinvocation());
    }
}
