package io.kapi.admission.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.admission.Attributes;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** MutatingAdmissionPolicy on its own, over an in-memory view of policies and bindings. */
class MutatingAdmissionPolicyPluginTest {

    private static final String GROUP = "admissionregistration.k8s.io";
    private static final GroupVersionResource POLICIES = new GroupVersionResource(GROUP, "v1beta1", "mutatingadmissionpolicies");
    private static final GroupVersionResource BINDINGS =
            new GroupVersionResource(GROUP, "v1beta1", "mutatingadmissionpolicybindings");

    private final Map<GroupVersionResource, List<ObjectNode>> objects = new java.util.HashMap<>();
    private final ObjectLookup lookup = new ObjectLookup() {
        @Override
        public Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name) {
            return objects.getOrDefault(resource, List.of()).stream()
                    .filter(o -> o.path("metadata").path("name").asText().equals(name)).findFirst();
        }

        @Override
        public List<ObjectNode> list(GroupVersionResource resource, String namespace) {
            return objects.getOrDefault(resource, List.of());
        }
    };
    private final MutatingAdmissionPolicyPlugin plugin = new MutatingAdmissionPolicyPlugin(PluginContext.of(lookup));

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(text.replace('\'', '"'));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private void add(GroupVersionResource resource, ObjectNode object) {
        objects.computeIfAbsent(resource, r -> new ArrayList<>()).add(object);
    }

    /** A policy on deployments with the given mutations, reinvocation and failure policies, and its binding. */
    private void policy(String name, List<ObjectNode> mutations, String reinvocation, String failurePolicy) {
        ObjectNode policy = json("{'metadata':{'name':'" + name + "'},'spec':{'failurePolicy':'" + failurePolicy
                + "','reinvocationPolicy':'" + reinvocation + "','matchConstraints':{'resourceRules':[{'apiGroups':"
                + "['apps'],'apiVersions':['v1'],'operations':['CREATE'],'resources':['deployments']}]},"
                + "'variables':[{'name':'team'}]}}");
        ((ObjectNode) policy.at("/spec/variables/0")).put("expression", "'platform'");
        ((ObjectNode) policy.get("spec")).putArray("mutations").addAll(mutations);
        add(POLICIES, policy);
        add(BINDINGS, json("{'metadata':{'name':'" + name + "-binding'},'spec':{'policyName':'" + name + "'}}"));
    }

    private static List<ObjectNode> apply(String expression) {
        return List.of(mutation("ApplyConfiguration", "applyConfiguration", expression));
    }

    private static ObjectNode mutation(String type, String holder, String expression) {
        ObjectNode m = Json.object().put("patchType", type);
        m.putObject(holder).put("expression", expression);
        return m;
    }

    private static Attributes create(ObjectNode deployment) {
        return new Attributes(Operation.CREATE, new Attributes.Target(new GroupVersionKind("apps", "v1", "Deployment"),
                new GroupVersionResource("apps", "v1", "deployments"), "", "ns", "web"), deployment, null,
                new UserInfo("alice", "", List.of(), Map.of()), false, null);
    }

    private static ObjectNode deployment() {
        return json("{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','namespace':'ns'},"
                + "'spec':{'replicas':1,'template':{'spec':{'containers':[{'name':'app','image':'nginx:1.27',"
                + "'imagePullPolicy':'IfNotPresent','args':['a']},{'name':'side','image':'busybox'}]}}}}");
    }

    @Test
    @DisplayName("an apply configuration merges: labels map, containers by name, variables, untouched fields kept")
    void applyConfiguration() {
        policy("defaults", apply("Object{metadata: Object.metadata{labels: {\"team\": variables.team}},"
                + " spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers:"
                + " object.spec.template.spec.containers.map(c, Object.spec.template.spec.containers{name: c.name,"
                + " imagePullPolicy: \"Always\"})}}}}"), "Never", "Fail");
        Attributes a = create(deployment());
        new AdmissionChain(List.of(plugin)).admit(a);
        assertEquals("platform", a.object().at("/metadata/labels/team").asText());
        assertEquals("Always", a.object().at("/spec/template/spec/containers/0/imagePullPolicy").asText());
        assertEquals("Always", a.object().at("/spec/template/spec/containers/1/imagePullPolicy").asText());
        assertEquals("a", a.object().at("/spec/template/spec/containers/0/args/0").asText());
        assertEquals("nginx:1.27", a.object().at("/spec/template/spec/containers/0/image").asText());
        assertEquals(1, a.object().at("/spec/replicas").asInt());
    }

    @Test
    @DisplayName("a JSON patch applies; a failing test op leaves the object as it was")
    void jsonPatch() {
        policy("patch", List.of(
                mutation("JSONPatch", "jsonPatch", "[JSONPatch{op: \"add\", path: \"/metadata/labels\","
                        + " value: {\"a.io/b\": \"x\"}}, JSONPatch{op: \"replace\", path: \"/spec/replicas\","
                        + " value: object.spec.replicas + 2}]"),
                mutation("JSONPatch", "jsonPatch", "[JSONPatch{op: \"test\", path: \"/spec/replicas\", value: 100},"
                        + " JSONPatch{op: \"replace\", path: \"/spec/replicas\", value: 0}]")), "Never", "Fail");
        Attributes a = create(deployment());
        new AdmissionChain(List.of(plugin)).admit(a);
        assertEquals("x", a.object().at("/metadata/labels/a.io~1b").asText());
        assertEquals(3, a.object().at("/spec/replicas").asInt());
    }

    @Test
    @DisplayName("an IfNeeded policy runs again when a later policy changed the object; a Never one does not")
    void reinvocation() {
        policy("a-copy", apply("Object{metadata: Object.metadata{annotations: {\"copied\":"
                + " object.metadata.?labels[?\"team\"].orValue(\"none\")}}}"), "IfNeeded", "Fail");
        policy("b-label", apply("Object{metadata: Object.metadata{labels: {\"team\": \"blue\"}}}"), "Never", "Fail");
        Attributes a = create(deployment());
        new AdmissionChain(List.of(plugin)).admit(a);
        assertEquals("blue", a.object().at("/metadata/annotations/copied").asText());

        objects.clear();
        policy("a-copy", apply("Object{metadata: Object.metadata{annotations: {\"copied\":"
                + " object.metadata.?labels[?\"team\"].orValue(\"none\")}}}"), "Never", "Fail");
        policy("b-label", apply("Object{metadata: Object.metadata{labels: {\"team\": \"blue\"}}}"), "Never", "Fail");
        MutatingAdmissionPolicyPlugin fresh = new MutatingAdmissionPolicyPlugin(PluginContext.of(lookup));
        Attributes b = create(deployment());
        new AdmissionChain(List.of(fresh)).admit(b);
        assertEquals("none", b.object().at("/metadata/annotations/copied").asText());
    }

    @Test
    @DisplayName("a failing mutation denies with kube's wording under Fail, and is ignored under Ignore")
    void failurePolicy() {
        policy("broken", apply("Object{spec: Object.spec{replicas: object.spec.nosuch}}"), "Never", "Fail");
        ApiException e = assertThrows(ApiException.class, () -> new AdmissionChain(List.of(plugin)).admit(
                create(deployment())));
        assertEquals("policy 'broken' with binding 'broken-binding' denied request: expression 'Object{spec: "
                + "Object.spec{replicas: object.spec.nosuch}}' resulted in error: no such key: nosuch", e.getMessage());
        assertEquals(StatusReason.INVALID, e.reason());
        assertEquals(403, e.code());

        objects.clear();
        policy("ignored", apply("Object{spec: Object.spec{replicas: object.spec.nosuch}}"), "Never", "Ignore");
        Attributes a = create(deployment());
        new AdmissionChain(List.of(new MutatingAdmissionPolicyPlugin(PluginContext.of(lookup)))).admit(a);
        assertEquals(1, a.object().at("/spec/replicas").asInt());
    }

    @Test
    @DisplayName("an apply configuration may not set an atomic list, nor a field the schema lacks")
    void atomicAndUndeclared() {
        policy("atomic", apply("Object{spec: Object.spec{template: Object.spec.template{spec:"
                + " Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: \"app\","
                + " args: [\"b\"]}]}}}}"), "Never", "Fail");
        ApiException e = assertThrows(ApiException.class, () -> new AdmissionChain(List.of(plugin)).admit(
                create(deployment())));
        assertTrue(e.getMessage().endsWith("error applying patch: invalid ApplyConfiguration: may not mutate atomic "
                + "arrays, maps or structs: .spec.template.spec.containers[0].args"), e.getMessage());

        objects.clear();
        policy("undeclared", apply("Object{spec: Object.spec{nosuch: 1}}"), "Never", "Fail");
        ApiException u = assertThrows(ApiException.class, () -> new AdmissionChain(List.of(
                new MutatingAdmissionPolicyPlugin(PluginContext.of(lookup)))).admit(create(deployment())));
        assertTrue(u.getMessage().endsWith("error applying patch: failed to convert patch object to typed object: "
                + ".spec.nosuch: field not declared in schema"), u.getMessage());
    }

    @Test
    @DisplayName("an object typed after another field path is a type mismatch")
    void typeMismatch() {
        policy("mismatch", apply("Object{spec: Object.spec{selector: Object.spec.wrong{}}}"), "Never", "Fail");
        ApiException e = assertThrows(ApiException.class, () -> new AdmissionChain(List.of(plugin)).admit(
                create(deployment())));
        assertTrue(e.getMessage().endsWith("type mismatch: unexpected type name \"Object.spec.wrong\", expected "
                + "\"Object.spec.selector\", which matches field name path from root Object type"), e.getMessage());
    }
}
