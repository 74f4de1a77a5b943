package io.kapi.apis.defaults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.quantity.Quantity;
import java.util.Map;

/**
 * {@code SetDefaults_ResourceList}: every quantity of a resource list (container requests and limits,
 * capacities, quota and limit-range amounts) rounded up to milli units and written in canonical form,
 * so {@code cpu: 0.5} reads back as {@code 500m} and {@code memory: 1.5Gi} as {@code 1536Mi}.
 */
final class ResourceLists {

    private ResourceLists() {
    }

    /** Canonicalises the resource list at {@code holder.field}, if any; invalid values are left alone. */
    static void round(ObjectNode holder, String field) {
        if (!(Fields.child(holder, field) instanceof ObjectNode list)) {
            return;
        }
        for (Map.Entry<String, JsonNode> entry : list.properties()) {
            JsonNode value = entry.getValue();
            String text = value.isNumber() ? value.decimalValue().toPlainString() : value.isTextual() ? value.asText() : null;
            String canonical = text == null ? null : Quantity.canonical(text, -Quantity.MILLI);
            if (canonical != null) {
                entry.setValue(list.textNode(canonical));
            }
        }
    }

    /** A {@code ResourceRequirements}: its limits and requests. */
    static void requirements(ObjectNode resources) {
        round(resources, "limits");
        round(resources, "requests");
    }
}
