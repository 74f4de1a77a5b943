package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.bool;
import static io.kapi.registry.table.Column.integer;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;

/**
 * The tables of the smaller workload-side groups: policy, coordination, scheduling, node and resource
 * (dynamic resource allocation).
 */
public final class PolicyPrinters {

    private PolicyPrinters() {
    }

    public static KindPrinter podDisruptionBudgets() {
        return KindPrinter.of(nameColumn(),
                string("Min Available", Doc.text("The minimum number of pods that must be available."),
                        (o, now) -> GoValues.textOr(o, "N/A", "spec", "minAvailable")),
                string("Max Unavailable", Doc.text("The maximum number of pods that may be unavailable."),
                        (o, now) -> GoValues.textOr(o, "N/A", "spec", "maxUnavailable")),
                integer("Allowed Disruptions", Doc.text("Calculated number of pods that may be disrupted at this time."),
                        (o, now) -> GoValues.integer(o, "status", "disruptionsAllowed")),
                age());
    }

    public static KindPrinter leases() {
        return KindPrinter.of(nameColumn(),
                string("Holder", Doc.api("coordination.v1", "LeaseSpec", "holderIdentity"), (o, now) -> GoValues.text(o, "spec", "holderIdentity")),
                age());
    }

    public static KindPrinter priorityClasses() {
        return KindPrinter.of(nameColumn(),
                integer("Value", Doc.api("scheduling.v1", "PriorityClass", "value"), (o, now) -> GoValues.integer(o, "value")),
                bool("Global-Default", Doc.api("scheduling.v1", "PriorityClass", "globalDefault"), (o, now) -> GoValues.bool(o, "globalDefault")),
                age(),
                string("PreemptionPolicy", Doc.api("scheduling.v1", "PriorityClass", "preemptionPolicy"),
                        (o, now) -> GoValues.text(o, "preemptionPolicy")));
    }

    public static KindPrinter runtimeClasses() {
        return KindPrinter.of(nameColumn(),
                string("Handler", Doc.meta("handler"), (o, now) -> GoValues.text(o, "handler")),
                age());
    }

    public static KindPrinter deviceClasses() {
        return KindPrinter.of(nameColumn(), age());
    }

    public static KindPrinter resourceClaimTemplates() {
        return KindPrinter.of(nameColumn(), age());
    }

    public static KindPrinter resourceClaims() {
        return KindPrinter.of(nameColumn(),
                string("State", Doc.text("A summary of the current state (allocated, pending, reserved, etc.)."),
                        (o, now) -> claimState(o)),
                age());
    }

    public static KindPrinter resourceSlices() {
        return KindPrinter.of(nameColumn(),
                string("Node", Doc.api("resource.v1", "ResourceSliceSpec", "nodeName"), (o, now) -> GoValues.text(o, "spec", "nodeName")),
                string("Driver", Doc.api("resource.v1", "ResourceSliceSpec", "driver"), (o, now) -> GoValues.text(o, "spec", "driver")),
                string("Pool", Doc.api("resource.v1", "ResourcePool", "name"), (o, now) -> GoValues.text(o, "spec", "pool", "name")),
                age());
    }

    private static String claimState(JsonNode claim) {
        StringBuilder s = new StringBuilder();
        boolean deleting = Obj.deleting(claim);
        if (deleting) {
            s.append("deleted");
        }
        if (!GoValues.has(claim, "status", "allocation")) {
            if (!deleting) {
                s.append("pending");
            }
        } else {
            s.append(s.isEmpty() ? "" : ",").append("allocated");
            if (GoValues.size(claim, "status", "reservedFor") > 0) {
                s.append(",reserved");
            }
        }
        return s.toString();
    }
}
