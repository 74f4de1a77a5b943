package io.kapi.machinery.apply;

import static io.kapi.machinery.apply.Fixtures.MANAGERS;
import static io.kapi.machinery.apply.Fixtures.at;
import static io.kapi.machinery.apply.Fixtures.json;
import static io.kapi.machinery.apply.Fixtures.stored;
import static io.kapi.machinery.apply.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What an apply removes when its manager stops applying fields (structured-merge-diff's prune and
 * {@code RemoveItems}): a struct or map left with nothing goes, unless kube's typed object holds it by
 * value (built-in kinds only: a custom resource stays unstructured).
 */
class RemovalTest {

    private static final FieldManager WIDGETS = MANAGERS.forSchema(new GroupVersionKind("example.com", "v1", "Widget"),
            json("""
                    {"type":"object","properties":{
                      "apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
                      "spec":{"type":"object","properties":{
                        "list":{"type":"array","items":{"type":"string"}},
                        "value":{"type":"string"},
                        "inner":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}}},
                        "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
                          "items":{"type":"object","required":["name"],"properties":{
                            "name":{"type":"string"},
                            "cfg":{"type":"object","properties":{"x":{"type":"string"}}}}}},
                        "atom":{"type":"object","x-kubernetes-map-type":"atomic",
                          "properties":{"x":{"type":"string"},"y":{"type":"string"}}},
                        "granular":{"type":"object","x-kubernetes-map-type":"granular",
                          "properties":{"x":{"type":"string"},"y":{"type":"string"}}},
                        "labels":{"type":"object","additionalProperties":{"type":"string"}}}},
                      "status":{"type":"object","properties":{"phase":{"type":"string"}}}}}"""));
    private static final FieldManager QUOTAS = MANAGERS.forKind(new GroupVersionKind("", "v1", "ResourceQuota"));

    private static ObjectNode widget(String spec) {
        return yaml("""
                apiVersion: example.com/v1
                kind: Widget
                metadata: {name: w, namespace: default}
                """ + (spec == null ? "" : "spec: " + spec + "\n"));
    }

    private static ObjectNode apply(FieldManager fm, ObjectNode live, ObjectNode config, String manager, int second) {
        ObjectNode out = fm.apply(live, config, manager, "", false, at(second)).object();
        return live == null ? stored(out) : out;
    }

    @Test
    @DisplayName("an apply that stops owning every field of a custom resource's struct should remove the struct, "
            + "as kube-apiserver does (issue 30)")
    void emptiedCustomStructIsRemoved() {
        ObjectNode live = apply(WIDGETS, null, widget("{list: [a, b], value: v}"), "mgr", 0);
        ObjectNode finalizers = widget(null);
        finalizers.with("metadata").putArray("finalizers").add("example.com/f");
        ObjectNode out = apply(WIDGETS, live, finalizers, "mgr", 1);
        assertFalse(out.has("spec"), out.toString());
        assertEquals(json("[\"example.com/f\"]"), out.at("/metadata/finalizers"));
    }

    @Test
    @DisplayName("a built-in kind's struct held by value should stay as {} when emptied, as kube's typed object shows it")
    void emptiedBuiltInStructStays() {
        String quota = """
                apiVersion: v1
                kind: ResourceQuota
                metadata: {name: q, namespace: default, labels: {a: b}}
                """;
        ObjectNode live = apply(QUOTAS, null, yaml(quota + "spec: {hard: {pods: '1'}}\n"), "mgr", 0);
        ObjectNode out = apply(QUOTAS, live, yaml(quota), "mgr", 1);
        assertEquals(json("{}"), out.get("spec"), out.toString());
    }

    @Test
    @DisplayName("a built-in kind's struct held by pointer should go when emptied: a ReplicationController's template")
    void emptiedBuiltInPointerStructIsRemoved() {
        FieldManager controllers = MANAGERS.forKind(new GroupVersionKind("", "v1", "ReplicationController"));
        String rc = """
                apiVersion: v1
                kind: ReplicationController
                metadata: {name: rc, namespace: default}
                spec:
                  replicas: 1
                """;
        ObjectNode live = apply(controllers, null, yaml(rc + "  template: {metadata: {labels: {a: b}}}\n"), "mgr", 0);
        ObjectNode out = apply(controllers, live, yaml(rc), "mgr", 1);
        assertEquals(json("{\"replicas\":1}"), out.get("spec"), out.toString());
    }

    @Test
    @DisplayName("a built-in kind's emptied map inside a list item should go, the value struct around it staying {}: "
            + "a container's resources")
    void emptiedBuiltInMapInListItem() {
        ObjectNode config = yaml(Fixtures.DEPLOYMENT);
        ObjectNode container = (ObjectNode) config.at("/spec/template/spec/containers/0");
        container.with("resources").with("limits").put("cpu", "1");
        ObjectNode live = apply(Fixtures.DEPLOYMENTS, null, config, "mgr", 0);
        container.remove("resources");
        ObjectNode out = apply(Fixtures.DEPLOYMENTS, live, config, "mgr", 1);
        assertEquals(json("{}"), out.at("/spec/template/spec/containers/0/resources"), out.toString());
    }

    /**
     * One write of a removal case: a manager and the spec it applies (null: no spec at all), or, for an
     * update, the spec it writes over the live one.
     */
    record Step(String manager, String spec, boolean update) {
        Step(String manager, String spec) {
            this(manager, spec, false);
        }

        ObjectNode write(ObjectNode live, int second) {
            if (!update) {
                return apply(WIDGETS, live, widget(spec), manager, second);
            }
            ObjectNode next = live.deepCopy();
            next.set("spec", yaml("spec: " + spec).get("spec"));
            return WIDGETS.recordUpdate(live, next, manager, "", at(second));
        }
    }

    static List<Object[]> removalWalkCases() {
        return List.of(
                new Object[] {"a struct whose every field is released is removed",
                        List.of(new Step("a", "{inner: {x: '1', y: '2'}}"), new Step("a", null)), null},
                new Object[] {"a struct keeps the fields another manager owns",
                        List.of(new Step("a", "{inner: {x: '1', y: '2'}}"), new Step("b", "{inner: {y: '2'}}"),
                                new Step("a", null)), "{inner: {y: '2'}}"},
                new Object[] {"an emptied struct is removed from its parent, which keeps what others own",
                        List.of(new Step("a", "{inner: {x: '1'}}"), new Step("b", "{value: v}"),
                                new Step("a", null)), "{value: v}"},
                new Object[] {"an emptied map inside a list item is removed; the item stays while its key is owned",
                        List.of(new Step("a", "{items: [{name: n, cfg: {x: '1'}}]}"),
                                new Step("b", "{items: [{name: n}]}"), new Step("a", null)),
                        "{items: [{name: n}]}"},
                new Object[] {"a list item nobody owns is removed with the list",
                        List.of(new Step("a", "{items: [{name: n, cfg: {x: '1'}}], value: v}"),
                                new Step("a", "{value: v}")), "{value: v}"},
                new Object[] {"a list item goes whole when nobody owns the item, though an updater owns a field in it",
                        List.of(new Step("a", "{items: [{name: n, cfg: {x: '1'}}]}"),
                                new Step("b", "{items: [{name: n, cfg: {x: '2'}}]}", true), new Step("a", null)),
                        null},
                new Object[] {"an atomic struct stays whole while another manager owns it",
                        List.of(new Step("a", "{atom: {x: '1', y: '2'}}"), new Step("b", "{atom: {x: '1', y: '2'}}"),
                                new Step("a", null)), "{atom: {x: '1', y: '2'}}"},
                new Object[] {"an atomic struct goes whole once nobody owns it",
                        List.of(new Step("a", "{atom: {x: '1', y: '2'}}"), new Step("b", "{atom: {x: '1', y: '2'}}"),
                                new Step("a", null), new Step("b", null)), null},
                new Object[] {"a granular struct loses just the released fields",
                        List.of(new Step("a", "{granular: {x: '1', y: '2'}}"), new Step("b", "{granular: {y: '2'}}"),
                                new Step("a", null)), "{granular: {y: '2'}}"},
                new Object[] {"a granular struct is removed when emptied and unowned",
                        List.of(new Step("a", "{granular: {x: '1'}}"), new Step("b", "{granular: {y: '2'}}"),
                                new Step("a", null), new Step("b", null)), null},
                new Object[] {"a map of strings loses just the released keys",
                        List.of(new Step("a", "{labels: {k1: v1, k2: v2}}"), new Step("b", "{labels: {k2: v2}}"),
                                new Step("a", null)), "{labels: {k2: v2}}"},
                new Object[] {"a map of strings is removed when emptied and unowned",
                        List.of(new Step("a", "{labels: {k1: v1}, value: v}"), new Step("a", "{value: v}")),
                        "{value: v}"});
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("removalWalkCases")
    @DisplayName("a custom resource's fields should be removed as structured-merge-diff's removal walk removes them")
    void removalWalkCases(String name, List<Step> steps, String expectedSpec) {
        ObjectNode live = null;
        for (int i = 0; i < steps.size(); i++) {
            live = steps.get(i).write(live, i);
        }
        if (expectedSpec == null) {
            assertFalse(live.has("spec"), live.toString());
        } else {
            assertEquals(yaml("spec: " + expectedSpec).get("spec"), live.get("spec"), live.toString());
        }
    }
}
