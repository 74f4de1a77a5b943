package io.kapi.machinery.patch;

import static io.kapi.machinery.patch.Fixtures.body;
import static io.kapi.machinery.patch.Fixtures.deployment;
import static io.kapi.machinery.patch.Fixtures.deploymentSchema;
import static io.kapi.machinery.patch.Fixtures.j;
import static io.kapi.machinery.patch.Fixtures.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The patches kubectl commands send, applied as kube-apiserver applies them. */
class KubectlPatchesTest {

    private static ObjectNode strategic(ObjectNode current, String patch) {
        return Patches.apply(PatchType.STRATEGIC_MERGE, current, body(patch), deploymentSchema());
    }

    @Test
    @DisplayName("kubectl label (merge patch) adds and removes labels")
    void label() {
        ObjectNode out = Patches.apply(PatchType.MERGE, deployment(),
                body("{'metadata':{'labels':{'app':null,'tier':'front'}}}"), null);
        assertEquals(j("{'tier':'front'}"), out.at("/metadata/labels"));
    }

    @Test
    @DisplayName("kubectl annotate (merge patch) adds annotations where there were none")
    void annotate() {
        ObjectNode out = Patches.apply(PatchType.MERGE, deployment(),
                body("{'metadata':{'annotations':{'owner':'me'}}}"), null);
        assertEquals(j("{'owner':'me'}"), out.at("/metadata/annotations"));
    }

    @Test
    @DisplayName("kubectl scale (merge patch on the scale subresource) sets spec.replicas")
    void scale() {
        ObjectNode scale = obj("{'kind':'Scale','apiVersion':'autoscaling/v1','metadata':{'name':'web'},"
                + "'spec':{'replicas':1},'status':{'replicas':1,'selector':'app=web'}}");
        ObjectNode out = Patches.apply(PatchType.MERGE, scale, body("{'spec':{'replicas':3}}"), null);
        assertEquals(3, out.at("/spec/replicas").asInt());
        assertEquals("app=web", out.at("/status/selector").asText());
    }

    @Test
    @DisplayName("kubectl set image (strategic, with $setElementOrder) changes one image")
    void setImage() {
        ObjectNode out = strategic(deployment(), """
                {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'app'},{'name':'sidecar'}],
                  'containers':[{'image':'nginx:2','name':'app'}]}}}}""");
        assertEquals("nginx:2", out.at("/spec/template/spec/containers/0/image").asText());
        assertEquals("envoy:1", out.at("/spec/template/spec/containers/1/image").asText());
        assertEquals(2, out.at("/spec/template/spec/containers/0/env").size());
    }

    @Test
    @DisplayName("kubectl edit removing an env var (strategic two-way diff) deletes just it")
    void editRemovesEnv() {
        ObjectNode out = strategic(deployment(), """
                {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'app'},{'name':'sidecar'}],
                  'containers':[{'$setElementOrder/env':[{'name':'A'}],'env':[{'$patch':'delete','name':'B'}],'name':'app'}]}}}}""");
        assertEquals(j("[{'name':'A','value':'1'}]"), out.at("/spec/template/spec/containers/0/env"));
    }

    @Test
    @DisplayName("kubectl edit reordering env vars follows $setElementOrder")
    void editReordersEnv() {
        ObjectNode out = strategic(deployment(), """
                {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'app'},{'name':'sidecar'}],
                  'containers':[{'$setElementOrder/env':[{'name':'B'},{'name':'A'}],'name':'app'}]}}}}""");
        assertEquals(j("[{'name':'B','value':'2'},{'name':'A','value':'1'}]"),
                out.at("/spec/template/spec/containers/0/env"));
    }

    @Test
    @DisplayName("kubectl apply adding a port orders by numeric merge keys ($setElementOrder/ports)")
    void applyAddsPort() {
        ObjectNode out = strategic(deployment(), """
                {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'app'},{'name':'sidecar'}],
                  'containers':[{'name':'app','$setElementOrder/ports':[{'containerPort':443},{'containerPort':80}],
                    'ports':[{'containerPort':443,'protocol':'TCP'}]}]}}}}""");
        assertEquals(j("[{'containerPort':443,'protocol':'TCP'},{'containerPort':80,'protocol':'TCP'}]"),
                out.at("/spec/template/spec/containers/0/ports"));
    }

    @Test
    @DisplayName("kubectl apply removing a finalizer ($setElementOrder + $deleteFromPrimitiveList)")
    void applyRemovesFinalizer() {
        ObjectNode out = strategic(deployment(),
                "{'metadata':{'$setElementOrder/finalizers':['b'],'$deleteFromPrimitiveList/finalizers':['a']}}");
        assertEquals(j("['b']"), out.at("/metadata/finalizers"));
    }

    @Test
    @DisplayName("kubectl apply switching to Recreate ($retainKeys, rollingUpdate: null)")
    void applyRecreate() {
        ObjectNode out = strategic(deployment(),
                "{'spec':{'strategy':{'$retainKeys':['type'],'rollingUpdate':null,'type':'Recreate'}}}");
        assertEquals(j("{'type':'Recreate'}"), out.at("/spec/strategy"));
    }

    @Test
    @DisplayName("kubectl rollout restart adds a template annotation")
    void rolloutRestart() {
        ObjectNode out = strategic(deployment(), """
                {'spec':{'template':{'metadata':{'annotations':{'kubectl.kubernetes.io/restartedAt':'2026-01-01T00:00:00Z'}}}}}""");
        assertEquals(j("{'kubectl.kubernetes.io/restartedAt':'2026-01-01T00:00:00Z'}"),
                out.at("/spec/template/metadata/annotations"));
        assertEquals(j("{'app':'web'}"), out.at("/spec/template/metadata/labels"));
    }

    @Test
    @DisplayName("kubectl cordon (strategic on a Node) sets spec.unschedulable")
    void cordon() {
        PatchSchema nodeSchema = Fixtures.SCHEMAS.forKind(new GroupVersionKind("", "v1", "Node")).orElseThrow();
        ObjectNode node = obj("{'kind':'Node','apiVersion':'v1','metadata':{'name':'n1'},'spec':{'podCIDR':'10.0.0.0/24'}}");
        ObjectNode out = Patches.apply(PatchType.STRATEGIC_MERGE, node, body("{'spec':{'unschedulable':true}}"), nodeSchema);
        assertEquals(j("{'podCIDR':'10.0.0.0/24','unschedulable':true}"), out.get("spec"));
    }

    @Test
    @DisplayName("kubectl patch --type=json removing a finalizer by index")
    void jsonRemoveFinalizer() {
        ObjectNode out = Patches.apply(PatchType.JSON, deployment(),
                body("[{'op':'remove','path':'/metadata/finalizers/0'}]"), null);
        assertEquals(j("['b']"), out.at("/metadata/finalizers"));
    }

    @Test
    @DisplayName("kubectl patch with finalizers: null clears them (strategic)")
    void clearFinalizers() {
        ObjectNode out = strategic(deployment(), "{'metadata':{'finalizers':null}}");
        assertFalse(out.get("metadata").has("finalizers"));
    }
}
