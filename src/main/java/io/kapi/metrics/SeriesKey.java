package io.kapi.metrics;

import java.util.Arrays;

/**
 * Label values as a map key hashed once and compared element by element: the families find a series by it
 * instead of by the Java client's list lookup, which walks two iterators on every request.
 */
final class SeriesKey {

    private final String[] values;
    private final int hash;

    SeriesKey(String[] values) {
        this.values = values;
        this.hash = Arrays.hashCode(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SeriesKey k && k.hash == hash && Arrays.equals(k.values, values);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
