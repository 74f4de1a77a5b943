package io.kapi.endpoint.table;

import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;

/** The columns most tables share: NAME first, AGE near the end. */
final class Columns {

    private Columns() {
    }

    /** The NAME column every printer starts with. */
    static Column nameColumn() {
        return new Column("Name", "string", "name", 0, Doc.meta("name"), (o, now) -> Obj.name(o));
    }

    /** The AGE column: the human age of {@code metadata.creationTimestamp}. */
    static Column age() {
        return Column.string("Age", Doc.meta("creationTimestamp"), Obj::age);
    }
}
