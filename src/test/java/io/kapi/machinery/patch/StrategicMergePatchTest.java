package io.kapi.machinery.patch;

import static io.kapi.machinery.patch.Fixtures.body;
import static io.kapi.machinery.patch.Fixtures.deployment;
import static io.kapi.machinery.patch.Fixtures.deploymentSchema;
import static io.kapi.machinery.patch.Fixtures.j;
import static io.kapi.machinery.patch.Fixtures.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StrategicMergePatchTest {

    private static ObjectNode patchDeployment(String patch) {
        return Patches.apply(PatchType.STRATEGIC_MERGE, deployment(), body(patch), deploymentSchema());
    }

    private static JsonNode podSpec(ObjectNode deployment) {
        return deployment.at("/spec/template/spec");
    }

    private static JsonNode names(JsonNode list) {
        com.fasterxml.jackson.databind.node.ArrayNode names = io.kapi.machinery.Json.MAPPER.createArrayNode();
        list.forEach(item -> names.add(item.get("name")));
        return names;
    }

    @Test
    @DisplayName("containers merge by name: the named one changes, the others stay, order kept")
    void containersByName() {
        ObjectNode out = patchDeployment("{'spec':{'template':{'spec':{'containers':[{'name':'app','image':'nginx:2'}]}}}}");
        JsonNode containers = podSpec(out).get("containers");
        assertEquals(j("['app','sidecar']"), names(containers));
        assertEquals("nginx:2", containers.get(0).get("image").asText());
        assertEquals(j("[{'name':'A','value':'1'},{'name':'B','value':'2'}]"), containers.get(0).get("env"));
        assertEquals(j("{'name':'sidecar','image':'envoy:1'}"), containers.get(1));
    }

    @Test
    @DisplayName("a new container named alone comes before the original ones (kube's order rule)")
    void newContainerFirst() {
        ObjectNode out = patchDeployment("{'spec':{'template':{'spec':{'containers':[{'name':'new','image':'busybox'}]}}}}");
        assertEquals(j("['new','app','sidecar']"), names(podSpec(out).get("containers")));
    }

    @Test
    @DisplayName("patch items keep patch order, original items interleave by their original position")
    void interleaving() {
        ObjectNode out = patchDeployment(
                "{'spec':{'template':{'spec':{'containers':[{'name':'sidecar','image':'envoy:2'},{'name':'new'}]}}}}");
        assertEquals(j("['app','sidecar','new']"), names(podSpec(out).get("containers")));
    }

    @Test
    @DisplayName("env merges by name inside the matched container")
    void envByName() {
        ObjectNode out = patchDeployment("""
                {'spec':{'template':{'spec':{'containers':[{'name':'app',
                  'env':[{'name':'B','value':'3'},{'name':'C','value':'4'}]}]}}}}""");
        assertEquals(j("[{'name':'A','value':'1'},{'name':'B','value':'3'},{'name':'C','value':'4'}]"),
                podSpec(out).at("/containers/0/env"));
    }

    @Test
    @DisplayName("ports merge by containerPort, a number")
    void portsByContainerPort() {
        ObjectNode out = patchDeployment("""
                {'spec':{'template':{'spec':{'containers':[{'name':'app',
                  'ports':[{'containerPort':80,'name':'http'},{'containerPort':443,'name':'https'}]}]}}}}""");
        assertEquals(j("[{'containerPort':80,'protocol':'TCP','name':'http'},{'containerPort':443,'name':'https'}]"),
                podSpec(out).at("/containers/0/ports"));
    }

    @Test
    @DisplayName("pod spec.containers[].ports merge by containerPort on a Pod")
    void podPorts() {
        ObjectNode pod = obj("""
                {'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},
                 'spec':{'containers':[{'name':'c','image':'i','ports':[{'containerPort':8080,'protocol':'TCP'}]}]}}""");
        ObjectNode out = Patches.apply(PatchType.STRATEGIC_MERGE, pod,
                body("{'spec':{'containers':[{'name':'c','ports':[{'containerPort':9090}]}]}}"), Fixtures.podSchema());
        assertEquals(j("[{'containerPort':9090},{'containerPort':8080,'protocol':'TCP'}]"), out.at("/spec/containers/0/ports"));
    }

    @Test
    @DisplayName("volumes merge by name; $retainKeys swaps the volume source")
    void volumesRetainKeys() {
        ObjectNode out = patchDeployment("""
                {'spec':{'template':{'spec':{'volumes':[
                  {'name':'data','$retainKeys':['hostPath','name'],'hostPath':{'path':'/x'}}]}}}}""");
        assertEquals(j("[{'name':'data','hostPath':{'path':'/x'}},{'name':'cfg','configMap':{'name':'cfg'}}]"),
                podSpec(out).get("volumes"));
    }

    @Test
    @DisplayName("tolerations have no merge strategy: the list is replaced")
    void tolerationsReplaced() {
        ObjectNode out = patchDeployment("{'spec':{'template':{'spec':{'tolerations':[{'key':'k2','operator':'Exists'}]}}}}");
        assertEquals(j("[{'key':'k2','operator':'Exists'}]"), podSpec(out).get("tolerations"));
    }

    @Test
    @DisplayName("$patch: delete removes a container by name")
    void deleteContainer() {
        ObjectNode out = patchDeployment("{'spec':{'template':{'spec':{'containers':[{'name':'sidecar','$patch':'delete'}]}}}}");
        assertEquals(j("['app']"), names(podSpec(out).get("containers")));
    }

    @Test
    @DisplayName("$patch: replace in a list makes the patch items the whole list")
    void replaceList() {
        ObjectNode out = patchDeployment(
                "{'spec':{'template':{'spec':{'containers':[{'$patch':'replace'},{'name':'only','image':'i'}]}}}}");
        assertEquals(j("[{'name':'only','image':'i'}]"), podSpec(out).get("containers"));
    }

    @Test
    @DisplayName("$patch: replace on a map replaces it, $patch: delete empties it")
    void mapDirectives() {
        ObjectNode replaced = patchDeployment("{'spec':{'selector':{'$patch':'replace','matchLabels':{'x':'y'}}}}");
        assertEquals(j("{'matchLabels':{'x':'y'}}"), replaced.at("/spec/selector"));
        ObjectNode deleted = patchDeployment("{'spec':{'template':{'metadata':{'$patch':'delete'}}}}");
        assertEquals(j("{}"), deleted.at("/spec/template/metadata"));
    }

    @Test
    @DisplayName("$setElementOrder fixes the order of a merged list")
    void setElementOrder() {
        ObjectNode out = patchDeployment("""
                {'spec':{'template':{'spec':{
                  '$setElementOrder/containers':[{'name':'sidecar'},{'name':'app'}],
                  'containers':[{'name':'app','image':'nginx:3'}]}}}}""");
        JsonNode containers = podSpec(out).get("containers");
        assertEquals(j("['sidecar','app']"), names(containers));
        assertEquals("nginx:3", containers.get(1).get("image").asText());
    }

    @Test
    @DisplayName("$retainKeys on spec.strategy drops rollingUpdate when switching to Recreate")
    void retainKeysOnStrategy() {
        ObjectNode out = patchDeployment("{'spec':{'strategy':{'$retainKeys':['type'],'type':'Recreate'}}}");
        assertEquals(j("{'type':'Recreate'}"), out.at("/spec/strategy"));
    }

    @Test
    @DisplayName("$deleteFromPrimitiveList/finalizers removes values from a scalar list")
    void deleteFromPrimitiveList() {
        ObjectNode out = patchDeployment("{'metadata':{'$deleteFromPrimitiveList/finalizers':['a']}}");
        assertEquals(j("['b']"), out.at("/metadata/finalizers"));
    }

    @Test
    @DisplayName("$deleteFromPrimitiveList on a missing list does nothing")
    void deleteFromMissingList() {
        ObjectNode out = patchDeployment("{'spec':{'$deleteFromPrimitiveList/nothing':['a']}}");
        assertEquals(deployment().get("spec"), out.get("spec"));
    }

    @Test
    @DisplayName("finalizers (merge, scalars) become the union, patch values first where new")
    void finalizersUnion() {
        ObjectNode out = patchDeployment("{'metadata':{'finalizers':['c','a']}}");
        assertEquals(j("['c','a','b']"), out.at("/metadata/finalizers"));
    }

    @Test
    @DisplayName("null deletes a map key; maps merge")
    void nullDeletes() {
        ObjectNode out = patchDeployment("{'metadata':{'labels':{'app':null,'tier':'front'}},'spec':{'replicas':null}}");
        assertEquals(j("{'tier':'front'}"), out.at("/metadata/labels"));
        assertEquals(false, out.get("spec").has("replicas"));
    }

    @Test
    @DisplayName("values added whole lose their nulls and directives, as decoding into the type does")
    void addedValuesCleaned() {
        ObjectNode out = patchDeployment("""
                {'spec':{'template':{'spec':{'affinity':{'nodeAffinity':null,'podAffinity':{'x':1}},
                  'containers':[{'name':'new','image':null,'$setElementOrder/env':[{'name':'A'}],'env':[{'name':'A'}]}]}}}}""");
        assertEquals(j("{'podAffinity':{'x':1}}"), podSpec(out).get("affinity"));
        assertEquals(j("{'name':'new','env':[{'name':'A'}]}"), podSpec(out).at("/containers/0"));
    }

    @Test
    @DisplayName("fields the schema does not know: maps merge, lists replace")
    void unknownFields() {
        ObjectNode current = deployment();
        current.putObject("status").putArray("conditions").addObject().put("type", "Available");
        ((ObjectNode) current.get("status")).putObject("extra").put("a", 1);
        ObjectNode out = Patches.apply(PatchType.STRATEGIC_MERGE, current,
                body("{'status':{'extra':{'b':2},'mystery':[1]}}"), deploymentSchema());
        assertEquals(j("{'a':1,'b':2}"), out.at("/status/extra"));
        assertEquals(j("[1]"), out.at("/status/mystery"));
    }

    @Test
    @DisplayName("a map with strategy replace (PodDisruptionBudget spec.selector) is replaced, not merged")
    void replaceStrategyMap() {
        PatchSchema pdb = Fixtures.SCHEMAS.forKind(new io.kapi.machinery.GroupVersionKind("policy", "v1",
                "PodDisruptionBudget")).orElseThrow();
        ObjectNode current = obj("{'spec':{'minAvailable':1,'selector':{'matchLabels':{'a':'1'}}}}");
        ObjectNode out = Patches.apply(PatchType.STRATEGIC_MERGE, current,
                body("{'spec':{'selector':{'matchLabels':{'b':'2'}}}}"), pdb);
        assertEquals(j("{'minAvailable':1,'selector':{'matchLabels':{'b':'2'}}}"), out.get("spec"));
    }

    @Test
    @DisplayName("a $patch: replace at the root replaces the whole object")
    void rootReplace() {
        ObjectNode out = patchDeployment("{'$patch':'replace','kind':'Deployment','metadata':{'name':'x'}}");
        assertEquals(j("{'kind':'Deployment','metadata':{'name':'x'}}"), out);
    }

    @Test
    @DisplayName("the current object is never modified")
    void noMutation() {
        ObjectNode current = deployment();
        Patches.apply(PatchType.STRATEGIC_MERGE, current,
                body("{'metadata':{'labels':{'x':'y'}},'spec':{'template':{'spec':{'containers':[{'name':'app','image':'z'}]}}}}"),
                deploymentSchema());
        assertEquals(deployment(), current);
    }

    @Test
    @DisplayName("a list of lists in a merging list is 422")
    void listOfLists() {
        ObjectNode current = deployment();
        ((ObjectNode) current.get("metadata")).putArray("finalizers");
        ApiException e = assertThrows(ApiException.class, () -> Patches.apply(PatchType.STRATEGIC_MERGE, current,
                body("{'metadata':{'finalizers':[['x']]}}"), deploymentSchema()));
        assertEquals(422, e.code());
        assertEquals("the server rejected our request due to an error in our request", e.getMessage());
    }

    @ParameterizedTest(name = "{0} → {2}")
    @DisplayName("strategic merge errors are coded as kube-apiserver's")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "a list item without its merge key | {'spec':{'template':{'spec':{'containers':[{'image':'x'}]}}}} | 500 | map: map[image:x] does not contain declared merge key: name",
            "an unknown $patch in a list | {'spec':{'template':{'spec':{'containers':[{'name':'app','$patch':'frob'}]}}}} | 500 | unknown patch type: frob in map: map[$patch:frob name:app]",
            "$patch: merge in a list | {'spec':{'template':{'spec':{'containers':[{'name':'app','$patch':'merge'}]}}}} | 500 | merging lists cannot yet be specified in the patch",
            "an unknown $patch on a map | {'spec':{'strategy':{'$patch':'frob'}}} | 500 | unknown patch type: frob in map: map[$patch:frob]",
            "a patch key missing from $retainKeys | {'spec':{'strategy':{'$retainKeys':['type'],'rollingUpdate':{}}}} | 400 | invalid patch format of retainKeys",
            "$retainKeys that is not a list | {'spec':{'strategy':{'$retainKeys':'type'}}} | 400 | invalid patch format of retainKeys",
            "$deleteFromPrimitiveList without a field | {'metadata':{'$deleteFromPrimitiveList':['a']}} | 400 | invalid patch format of primitive list",
            "$setElementOrder without a field | {'metadata':{'$setElementOrder':['a']}} | 400 | invalid patch format of setElementOrder list",
            "$setElementOrder not matching the patch order | {'metadata':{'$setElementOrder/finalizers':['b','a'],'finalizers':['a','b']}} | 500 | \"the order in patch list:\n[a b]\n doesn't match $setElementOrder list:\n[b a]\"",
            "a list of lists after a list of strings | {'metadata':{'finalizers':[['x']]}} | 500 | list element types are not identical: [[a b] [[x]]]",
            "mixed element types | {'metadata':{'finalizers':[1]}} | 500 | list element types are not identical: [[a b] [1]]",
            "a body that is an array | [] | 400 | json: cannot unmarshal array into Go value of type map[string]interface {}",
            "a body that is not JSON | {'a': | 400 | unexpected end of JSON input"})
    void errors(String name, String patch, int code, String message) {
        ApiException e = assertThrows(ApiException.class, () -> patchDeployment(patch));
        assertEquals(code, e.code());
        assertEquals(message, e.getMessage());
    }
}
