package io.kapi.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A span that is current until closed ({@code try (TraceScope s = Tracing.start("Create etcd3")) {...}}):
 * closing ends it and restores the parent as current. {@link #NONE} when tracing is off.
 */
public sealed class TraceScope implements AutoCloseable permits TraceScope.None {

    /** Tracing off: every method does nothing. */
    public static final TraceScope NONE = new None();

    /** Sampled spans started and not yet ended, in the whole server. */
    private static final AtomicInteger SAMPLED_OPEN = new AtomicInteger();

    private final Span span;
    private final Scope scope;
    private final boolean sampled;

    private TraceScope(Span span, Scope scope, boolean sampled) {
        this.span = span;
        this.scope = scope;
        this.sampled = sampled;
    }

    static TraceScope open(SpanBuilder builder, String... attributes) {
        for (int i = 0; i + 1 < attributes.length; i += 2) {
            if (attributes[i + 1] != null) {
                builder.setAttribute(attributes[i], attributes[i + 1]);
            }
        }
        Span span = builder.startSpan();
        boolean sampled = span.getSpanContext().isSampled();
        if (sampled) {
            SAMPLED_OPEN.incrementAndGet();
        }
        return new TraceScope(span, span.makeCurrent(), sampled);
    }

    /**
     * Whether any sampled span is open: when none is, no thread's current span can be sampled, so a child
     * span need not look up the current context (a thread-local read) to know it would not be recorded.
     */
    static boolean anySampledOpen() {
        return SAMPLED_OPEN.get() > 0;
    }

    public TraceScope attribute(String key, String value) {
        if (value != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    public TraceScope attribute(String key, long value) {
        span.setAttribute(key, value);
        return this;
    }

    /** Marks the span failed, with the error's type and message (never a credential: messages only). */
    public void error(Throwable error) {
        span.setStatus(StatusCode.ERROR, error.getClass().getSimpleName());
    }

    @Override
    public void close() {
        scope.close();
        span.end();
        if (sampled) {
            SAMPLED_OPEN.decrementAndGet();
        }
    }

    static final class None extends TraceScope {
        None() {
            super(null, null, false);
        }

        @Override
        public TraceScope attribute(String key, String value) {
            return this;
        }

        @Override
        public TraceScope attribute(String key, long value) {
            return this;
        }

        @Override
        public void error(Throwable error) {
        }

        @Override
        public void close() {
        }
    }
}
