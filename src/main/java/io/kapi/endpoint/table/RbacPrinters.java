package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables of {@code rbac.authorization.k8s.io}: bindings only. kube has no printer for Role and
 * ClusterRole, so those get the default NAME / CREATED AT table.
 */
public final class RbacPrinters {

    private RbacPrinters() {
    }

    public static KindPrinter roleBindings() {
        return bindings("RoleBinding", "roleBinding");
    }

    public static KindPrinter clusterRoleBindings() {
        return bindings("ClusterRoleBinding", "clusterRoleBinding");
    }

    private static KindPrinter bindings(String kind, String noun) {
        return KindPrinter.of(nameColumn(),
                string("Role", Doc.api("rbac.v1", kind, "roleRef"),
                        (o, now) -> GoValues.text(o, "roleRef", "kind") + "/" + GoValues.text(o, "roleRef", "name")),
                age(),
                string("Users", Doc.text("Users in the " + noun), (o, now) -> subjects(o, "User")).wide(),
                string("Groups", Doc.text("Groups in the " + noun), (o, now) -> subjects(o, "Group")).wide(),
                string("ServiceAccounts", Doc.text("ServiceAccounts in the " + noun), (o, now) -> subjects(o, "ServiceAccount")).wide());
    }

    /** Subjects of one kind, {@code ", "}-joined; service accounts as {@code namespace/name}. */
    private static String subjects(JsonNode binding, String kind) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : GoValues.items(binding, "subjects")) {
            if (kind.equals(GoValues.text(s, "kind"))) {
                out.add(kind.equals("ServiceAccount") ? GoValues.text(s, "namespace") + "/" + GoValues.text(s, "name") : GoValues.text(s, "name"));
            }
        }
        return String.join(", ", out);
    }
}
