package io.kapi.simulation;

import java.util.ArrayList;
import java.util.List;

/**
 * Nodes of one shape: one named node ({@code name}) or {@code count} nodes named {@code namePrefix0},
 * {@code namePrefix1} …
 */
public record NodeGroup(String name, String namePrefix, int count, NodeShape shape) {

    public NodeGroup {
        if ((name == null) == (namePrefix == null)) {
            throw new IllegalArgumentException("a node group has either a name or a namePrefix");
        }
        if (count < 0) {
            throw new IllegalArgumentException("count must be positive");
        }
    }

    /** The names of its nodes, in order. */
    public List<String> names() {
        if (name != null) {
            return List.of(name);
        }
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(namePrefix + i);
        }
        return names;
    }
}
