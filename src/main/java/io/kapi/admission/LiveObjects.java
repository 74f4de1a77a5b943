package io.kapi.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Every object of one resource as a watch keeps them (kube's informer cache): reading it costs no
 * request. Plugins compile what they need from {@link #items()} once per {@link #generation()}.
 */
public interface LiveObjects {

    /** The objects as of now, in no particular order; shared, never to be changed. */
    List<ObjectNode> items();

    /** Moves whenever {@link #items()} changes; -1 before the first complete list. */
    long generation();

    /** A fixed set (tests, and resources nothing watches). */
    static LiveObjects of(List<ObjectNode> items) {
        List<ObjectNode> copy = List.copyOf(items);
        return new LiveObjects() {
            @Override
            public List<ObjectNode> items() {
                return copy;
            }

            @Override
            public long generation() {
                return 0;
            }
        };
    }
}
