package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldSelectorTest {

    private static final ApiResource PODS = new ApiResource("", "v1", "pods", "pod", "Pod", true,
            List.of("get", "list"), List.of("po"), List.of("all"), List.of());
    private static final ApiResource CONFIGMAPS = new ApiResource("", "v1", "configmaps", "configmap", "ConfigMap",
            true, List.of("get", "list"), List.of("cm"), List.of(), List.of());

    @ParameterizedTest(name = "{0} → {1}")
    @DisplayName("pod field selectors match as kube-apiserver's pod GetAttrs")
    @CsvSource(delimiter = '|', value = {
            "spec.nodeName=n1|true", "spec.nodeName==n1|true", "spec.nodeName!=n1|false", "spec.nodeName=n2|false",
            "status.phase=Running,metadata.name=p1|true", "metadata.namespace=default|true",
            "spec.hostNetwork=false|true", "status.podIP=|true", "metadata.name=p\\,1|false"})
    void podFields(String selector, boolean expected) {
        ObjectNode pod = Json.object();
        pod.putObject("metadata").put("name", "p1").put("namespace", "default");
        pod.putObject("spec").put("nodeName", "n1");
        pod.putObject("status").put("phase", "Running");
        SelectableFields fields = SelectableFields.of(PODS);
        FieldSelector parsed = FieldSelector.parse(selector);
        fields.check(parsed);
        assertEquals(expected, parsed.matches(fields.of(pod)));
    }

    @Test
    @DisplayName("a field the resource cannot be selected by is 'field label not supported'")
    void unsupported() {
        ApiException e = assertThrows(ApiException.class,
                () -> SelectableFields.of(CONFIGMAPS).check(FieldSelector.parse("spec.nodeName=x")));
        assertEquals(400, e.code());
        assertEquals("field label not supported: spec.nodeName", e.getMessage());
    }

    @Test
    @DisplayName("a term without an operator is a bad request")
    void malformed() {
        assertThrows(ApiException.class, () -> FieldSelector.parse("metadata.name"));
    }
}
