package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.integer;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The tables of the {@code apps} group. */
public final class AppsPrinters {

    private static final String[] TEMPLATE = {"spec", "template", "spec"};
    private static final String V1 = "apps.v1";

    private AppsPrinters() {
    }

    public static KindPrinter controllerRevisions() {
        return KindPrinter.of(nameColumn(),
                string("Controller", Doc.text("Controller of the object"), (o, now) -> controller(o)),
                string("Revision", Doc.api(V1, "ControllerRevision", "revision"), (o, now) -> GoValues.integer(o, "revision")),
                age());
    }

    public static KindPrinter deployments() {
        List<Column> cols = new ArrayList<>(List.of(nameColumn(),
                string("Ready", Doc.text("Number of the pod with ready state"),
                        (o, now) -> GoValues.integer(o, "status", "readyReplicas") + "/" + GoValues.integer(o, "spec", "replicas")),
                string("Up-to-date", Doc.api(V1, "DeploymentStatus", "updatedReplicas"), (o, now) -> GoValues.integer(o, "status", "updatedReplicas")),
                string("Available", Doc.api(V1, "DeploymentStatus", "availableReplicas"), (o, now) -> GoValues.integer(o, "status", "availableReplicas")),
                age()));
        cols.addAll(Containers.wideColumns(TEMPLATE));
        cols.add(string("Selector", Doc.api(V1, "DeploymentSpec", "selector"), (o, now) -> {
            String s = Labels.selectorString(GoValues.at(o, "spec", "selector"));
            return s == null ? "<invalid>" : s;
        }).wide());
        return new KindPrinter(List.copyOf(cols), null);
    }

    public static KindPrinter replicaSets() {
        List<Column> cols = new ArrayList<>(List.of(nameColumn(),
                integer("Desired", Doc.api(V1, "ReplicaSetSpec", "replicas"), (o, now) -> GoValues.integer(o, "spec", "replicas")),
                integer("Current", Doc.api(V1, "ReplicaSetStatus", "replicas"), (o, now) -> GoValues.integer(o, "status", "replicas")),
                integer("Ready", Doc.api(V1, "ReplicaSetStatus", "readyReplicas"), (o, now) -> GoValues.integer(o, "status", "readyReplicas")),
                age()));
        cols.addAll(Containers.wideColumns(TEMPLATE));
        cols.add(selector(Doc.api(V1, "ReplicaSetSpec", "selector")));
        return new KindPrinter(List.copyOf(cols), null);
    }

    public static KindPrinter statefulSets() {
        List<Column> cols = new ArrayList<>(List.of(nameColumn(),
                string("Ready", Doc.text("Number of the pod with ready state"),
                        (o, now) -> GoValues.integer(o, "status", "readyReplicas") + "/" + GoValues.integer(o, "spec", "replicas")),
                age()));
        cols.addAll(Containers.wideColumns(TEMPLATE));
        return new KindPrinter(List.copyOf(cols), null);
    }

    public static KindPrinter daemonSets() {
        List<Column> cols = new ArrayList<>(List.of(nameColumn(),
                integer("Desired", Doc.api(V1, "DaemonSetStatus", "desiredNumberScheduled"), (o, now) -> GoValues.integer(o, "status", "desiredNumberScheduled")),
                integer("Current", Doc.api(V1, "DaemonSetStatus", "currentNumberScheduled"), (o, now) -> GoValues.integer(o, "status", "currentNumberScheduled")),
                integer("Ready", Doc.api(V1, "DaemonSetStatus", "numberReady"), (o, now) -> GoValues.integer(o, "status", "numberReady")),
                integer("Up-to-date", Doc.api(V1, "DaemonSetStatus", "updatedNumberScheduled"), (o, now) -> GoValues.integer(o, "status", "updatedNumberScheduled")),
                integer("Available", Doc.api(V1, "DaemonSetStatus", "numberAvailable"), (o, now) -> GoValues.integer(o, "status", "numberAvailable")),
                string("Node Selector", Doc.core("PodSpec", "nodeSelector"),
                        (o, now) -> Labels.format(GoValues.at(o, "spec", "template", "spec", "nodeSelector"))),
                age()));
        cols.addAll(Containers.wideColumns(TEMPLATE));
        cols.add(selector(Doc.api(V1, "DaemonSetSpec", "selector")));
        return new KindPrinter(List.copyOf(cols), null);
    }

    /** The wide SELECTOR column of a {@code spec.selector} label selector. */
    static Column selector(Doc doc) {
        return string("Selector", doc, (o, now) -> Labels.formatSelector(GoValues.at(o, "spec", "selector"))).wide();
    }

    /** {@code kind.group/name} of the controlling owner, lower-cased kind and group; {@code <none>} without one. */
    private static String controller(JsonNode obj) {
        for (JsonNode ref : GoValues.items(obj, "metadata", "ownerReferences")) {
            if (GoValues.bool(ref, "controller")) {
                String apiVersion = GoValues.text(ref, "apiVersion");
                int slash = apiVersion.indexOf('/');
                String group = slash < 0 ? "" : apiVersion.substring(0, slash);
                String kind = GoValues.text(ref, "kind");
                if (kind.isEmpty() && group.isEmpty()) {
                    return GoValues.text(ref, "name");
                }
                String groupKind = group.isEmpty() ? kind : kind + "." + group;
                return groupKind.toLowerCase(Locale.ROOT) + "/" + GoValues.text(ref, "name");
            }
        }
        return Labels.NONE;
    }
}
