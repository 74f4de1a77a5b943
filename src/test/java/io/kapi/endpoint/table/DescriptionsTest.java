package io.kapi.endpoint.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.apis.groups.BuiltinKinds;
import io.kapi.machinery.schema.Schemas;
import io.kapi.registry.table.Doc;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DescriptionsTest {

    /** Fields kube itself looks up where they do not exist, so its description is empty too. */
    private static final Set<String> EMPTY_IN_KUBE = Set.of(
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta#handler");

    @Test
    @DisplayName("every field a column description names should exist in the 1.34 definitions")
    void everyFieldResolves() {
        Descriptions docs = Descriptions.from(Schemas.load());
        List<String> missing = new ArrayList<>();
        BuiltinKinds.all().stream().filter(k -> k.printer() != null).forEach(k -> k.printer().get().columns().forEach(c -> {
            if (c.doc() instanceof Doc.Field f && docs.of(f).isEmpty()
                    && !EMPTY_IN_KUBE.contains(f.definition() + "#" + f.property())) {
                missing.add(k.gvk() + " " + c.name() + ": " + f.definition() + "#" + f.property());
            }
        }));
        assertEquals(List.of(), missing);
    }
}
