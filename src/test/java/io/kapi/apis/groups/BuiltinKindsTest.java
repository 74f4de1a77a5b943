package io.kapi.apis.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.resource.ApiEnablement;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.registry.Defaulter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BuiltinKindsTest {

    /** Every row of the resource table, the off-by-default versions included. */
    private static final ResourceTable ALL = ResourceTable.builtin(ApiEnablement.parse(List.of("api/all=true")));

    /** The kinds registered without a resource of their own: the scale subresource's. */
    private static final Set<String> SUBRESOURCE_KINDS = Set.of("autoscaling/v1, Kind=Scale");

    @Test
    @DisplayName("every kind of the resource table should resolve through the one index, and nothing else be registered")
    void tableAndIndexAgree() {
        Set<String> table = new TreeSet<>(SUBRESOURCE_KINDS);
        ALL.resources().forEach(r -> table.add(r.gvk().toString()));
        Set<String> registered = new TreeSet<>();
        BuiltinKinds.all().forEach(k -> registered.add(k.gvk().toString()));
        assertEquals(table, registered);
        for (ApiResource r : ALL.resources()) {
            assertTrue(BuiltinKinds.find(r.gvk()).isPresent(), r.gvk().toString());
        }
    }

    @Test
    @DisplayName("no kind should be registered twice, and a second registration should fail the index")
    void registeredOnce() {
        List<GroupVersionKind> kinds = new ArrayList<>();
        BuiltinKinds.all().forEach(k -> kinds.add(k.gvk()));
        assertEquals(kinds.size(), new HashSet<>(kinds).size());
        BuiltinKind pod = BuiltinKinds.find(new GroupVersionKind("", "v1", "Pod")).orElseThrow();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BuiltinKinds.index(List.of(List.of(pod), List.of(BuiltinKind.of(pod.gvk())))));
        assertEquals("built-in kinds registered twice: [v1, Kind=Pod]", e.getMessage());
    }

    @Test
    @DisplayName("every resource of the table should get its behaviour from its kind's registration")
    void everyResourceHasItsBehaviour() {
        BuiltinBehaviours behaviours = new BuiltinBehaviours();
        for (ApiResource r : ALL.resources()) {
            BuiltinKind kind = BuiltinKinds.of(r.gvk());
            var behaviour = behaviours.forResource(r, ALL.facts(r));
            assertSame(ALL.facts(r).stored() ? kind.conversion() : io.kapi.machinery.conversion.Converter.NONE,
                    behaviour.converter(), r.gvk().toString());
        }
    }

    @Test
    @DisplayName("a kind nobody registered should have no behaviour beyond its schema")
    void unknownKind() {
        GroupVersionKind widget = new GroupVersionKind("example.com", "v1", "Widget");
        assertTrue(BuiltinKinds.find(widget).isEmpty());
        assertSame(Defaulter.NONE, BuiltinKinds.of(widget).defaults());
    }
}
