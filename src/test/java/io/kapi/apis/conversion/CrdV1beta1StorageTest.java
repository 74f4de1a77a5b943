package io.kapi.apis.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.conversion.Converter;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** CustomResourceDefinitions served as v1, stored as kube-apiserver stores them (v1beta1), and back. */
class CrdV1beta1StorageTest {

    private static final Converter CRDS = new CrdV1beta1Storage();

    private static final String SERVED = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: widgets.example.com, uid: u1, resourceVersion: "5"}
            spec:
              group: example.com
              names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
              scope: Namespaced
              versions:
              - name: v1
                served: true
                storage: true
                schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                subresources: {status: {}}
                additionalPrinterColumns:
                - {name: Size, type: integer, jsonPath: .spec.size}
              - name: v2
                served: true
                storage: false
                schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                subresources: {status: {}}
                additionalPrinterColumns:
                - {name: Size, type: integer, jsonPath: .spec.size}
              conversion:
                strategy: Webhook
                webhook:
                  clientConfig: {url: "https://conv.example.com/convert"}
                  conversionReviewVersions: [v1]
            status:
              storedVersions: [v1]
            """;

    @Test
    @DisplayName("what every version shares moves to v1beta1's top level, with spec.version and JSONPath, as kube stores it")
    void hoisted() {
        assertEquals(Yaml.of("""
                apiVersion: apiextensions.k8s.io/v1beta1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com, uid: u1, resourceVersion: "5"}
                spec:
                  group: example.com
                  version: v1
                  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
                  scope: Namespaced
                  validation: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                  subresources: {status: {}}
                  versions:
                  - {name: v1, served: true, storage: true}
                  - {name: v2, served: true, storage: false}
                  additionalPrinterColumns:
                  - {name: Size, type: integer, JSONPath: .spec.size}
                  conversion:
                    strategy: Webhook
                    webhookClientConfig: {url: "https://conv.example.com/convert"}
                    conversionReviewVersions: [v1]
                  preserveUnknownFields: false
                status:
                  storedVersions: [v1]
                """), CRDS.toStorage(Yaml.of(SERVED)));
    }

    @Test
    @DisplayName("read back, the CRD is the one served, field order included")
    void roundTrip() {
        ObjectNode served = Yaml.of(SERVED);
        ObjectNode back = CRDS.fromStorage(CRDS.toStorage(served));
        assertEquals(served, back);
        List<String> fields = StreamSupport.stream(((Iterable<String>) () -> back.at("/spec/versions/1").fieldNames())
                .spliterator(), false).toList();
        assertEquals(List.of("name", "served", "storage", "schema", "subresources", "additionalPrinterColumns"), fields);
    }

    @Test
    @DisplayName("versions that differ keep their own schema, subresources and columns")
    void differentVersions() {
        ObjectNode served = Yaml.of(SERVED);
        ((ObjectNode) served.at("/spec/versions/1")).remove("subresources");
        ((ObjectNode) served.at("/spec/versions/1/schema/openAPIV3Schema")).put("description", "v2");
        ObjectNode stored = CRDS.toStorage(served);
        assertEquals(false, stored.at("/spec").has("validation"));
        assertEquals(false, stored.at("/spec").has("subresources"));
        assertEquals("v2", stored.at("/spec/versions/1/schema/openAPIV3Schema/description").asText());
        assertEquals(".spec.size", stored.at("/spec/additionalPrinterColumns/0/JSONPath").asText());
        assertEquals(served, CRDS.fromStorage(stored));
    }

    @Test
    @DisplayName("a v1beta1 CRD from an older cluster gets v1beta1's defaults: its version, unknown fields kept, no conversion")
    void olderCluster() {
        assertEquals(Yaml.of("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: olds.example.com}
                spec:
                  group: example.com
                  names: {plural: olds, kind: Old}
                  scope: Cluster
                  versions:
                  - name: v1alpha1
                    served: true
                    storage: true
                    schema: {openAPIV3Schema: {type: object}}
                  conversion: {strategy: None}
                  preserveUnknownFields: true
                """), CRDS.fromStorage(Yaml.of("""
                apiVersion: apiextensions.k8s.io/v1beta1
                kind: CustomResourceDefinition
                metadata: {name: olds.example.com}
                spec:
                  group: example.com
                  version: v1alpha1
                  names: {plural: olds, kind: Old}
                  scope: Cluster
                  validation: {openAPIV3Schema: {type: object}}
                """)));
    }

    @Test
    @DisplayName("a CRD an earlier Kapi stored as v1 is read as it is")
    void earlierKapi() {
        assertEquals(Yaml.of(SERVED), CRDS.fromStorage(Yaml.of(SERVED)));
    }
}
