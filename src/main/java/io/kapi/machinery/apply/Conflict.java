package io.kapi.machinery.apply;

import java.util.List;

/** A field another manager owns with a value the apply would change. */
record Conflict(ManagerKey manager, List<PathElement> path) {

    String pathString() {
        return FieldSet.pathString(path);
    }
}
