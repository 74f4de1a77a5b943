package io.kapi.machinery;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A value made on first use, once, by the supplier given; thread-safe. For what a start need not make:
 * what only a later request uses.
 */
public final class Lazy<T> implements Supplier<T> {

    private Supplier<? extends T> make;
    private volatile T value;

    private Lazy(Supplier<? extends T> make) {
        this.make = make;
    }

    public static <T> Lazy<T> of(Supplier<? extends T> make) {
        return new Lazy<>(Objects.requireNonNull(make));
    }

    /** The value, made now if this is its first use; the supplier must not return null. */
    @Override
    public T get() {
        T v = value;
        if (v != null) {
            return v;
        }
        synchronized (this) {
            if (value == null) {
                value = Objects.requireNonNull(make.get(), "a lazy value's supplier returned null");
                make = null;
            }
            return value;
        }
    }
}
