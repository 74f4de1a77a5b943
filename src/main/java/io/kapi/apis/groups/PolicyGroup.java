package io.kapi.apis.groups;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kapi.apis.validation.Scaling;
import io.kapi.endpoint.table.PolicyPrinters;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Json;
import java.util.List;

/** The kinds of {@code policy}. */
final class PolicyGroup {

    private static final GroupVersion V1 = new GroupVersion("policy", "v1");
    private static final JsonNodeFactory F = Json.NODES;

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "PodDisruptionBudget")
                    .validation(Scaling.PDB)
                    .status(o -> F.objectNode().put("disruptionsAllowed", 0).put("currentHealthy", 0)
                            .put("desiredHealthy", 0).put("expectedPods", 0))
                    .printer(PolicyPrinters::podDisruptionBudgets));

    private PolicyGroup() {
    }
}
