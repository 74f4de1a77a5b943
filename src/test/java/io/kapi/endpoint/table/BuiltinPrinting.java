package io.kapi.endpoint.table;

import io.kapi.apis.groups.BuiltinKind;
import io.kapi.apis.groups.BuiltinKinds;
import io.kapi.machinery.resource.ApiResource;

/**
 * The printing of each built-in kind as its registration declares it, read off the object itself: for tests
 * of the convertor alone (a server's comes from its resources' definitions, which print a resource served in
 * several versions in its stored form).
 */
final class BuiltinPrinting {

    private BuiltinPrinting() {
    }

    static Printing of(ApiResource resource) {
        return BuiltinKinds.find(resource.gvk()).map(BuiltinKind::printer).map(Printing.Builtin::of).orElse(null);
    }

    /** A convertor printing the built-in kinds, without column descriptions. */
    static TableConvertor convertor() {
        return TableConvertor.withoutSchemas(BuiltinPrinting::of);
    }
}
