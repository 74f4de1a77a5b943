package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.validation.NameRule;
import io.kapi.registry.KindValidator;
import java.util.List;

/** rbac.authorization.k8s.io/v1: rules of Roles and ClusterRoles, roleRef and subjects of bindings. */
public final class Rbac {

    static final String GROUP = "rbac.authorization.k8s.io";

    private Rbac() {
    }

    public static final KindValidator ROLE = Rules.of((o, e) -> rules(o, true, e));
    public static final KindValidator CLUSTER_ROLE = Rules.of(Rbac::clusterRole);
    public static final KindValidator ROLE_BINDING = Rules.of((o, e) -> binding(o, true, e), Rbac::roleRefImmutable);
    public static final KindValidator CLUSTER_ROLE_BINDING = Rules.of((o, e) -> binding(o, false, e), Rbac::roleRefImmutable);

    private static void rules(JsonNode role, boolean namespaced, Errs e) {
        List<JsonNode> rules = GoValues.items(role.get("rules"));
        for (int i = 0; i < rules.size(); i++) {
            JsonNode r = rules.get(i);
            String p = "rules[" + i + "]";
            if (GoValues.at(r, "verbs").isEmpty()) {
                e.required(p + ".verbs", "verbs must contain at least one value");
            }
            JsonNode urls = r.get("nonResourceURLs");
            if (!GoValues.at(r, "nonResourceURLs").isEmpty()) {
                if (namespaced) {
                    e.invalid(p + ".nonResourceURLs", Go.stringSlice(urls), "namespaced rules cannot apply to non-resource URLs");
                }
                if (!GoValues.at(r, "apiGroups").isEmpty() || !GoValues.at(r, "resources").isEmpty()
                        || !GoValues.at(r, "resourceNames").isEmpty()) {
                    e.invalid(p + ".nonResourceURLs", Go.stringSlice(urls),
                            "rules cannot apply to both regular resources and non-resource URLs");
                }
                continue;
            }
            if (GoValues.at(r, "apiGroups").isEmpty()) {
                e.required(p + ".apiGroups", "resource rules must supply at least one api group");
            }
            if (GoValues.at(r, "resources").isEmpty()) {
                e.required(p + ".resources", "resource rules must supply at least one resource");
            }
        }
    }

    private static void clusterRole(ObjectNode role, Errs e) {
        rules(role, false, e);
        JsonNode aggregation = role.get("aggregationRule");
        if (aggregation != null && aggregation.isObject()) {
            List<JsonNode> selectors = GoValues.items(aggregation.get("clusterRoleSelectors"));
            if (selectors.isEmpty()) {
                e.required("aggregationRule.clusterRoleSelectors",
                        "at least one clusterRoleSelector required if aggregationRule is non-nil");
            }
            for (int i = 0; i < selectors.size(); i++) {
                Selectors.validate(selectors.get(i), "aggregationRule.clusterRoleSelectors[" + i + "]", e);
            }
        }
    }

    private static void binding(ObjectNode b, boolean namespaced, Errs e) {
        JsonNode ref = GoValues.at(b, "roleRef");
        String apiGroup = GoValues.text(ref, "apiGroup");
        if (!apiGroup.equals(GROUP)) {
            e.notSupported("roleRef.apiGroup", GoStrings.quote(apiGroup), List.of(GROUP));
        }
        String kind = GoValues.text(ref, "kind");
        List<String> kinds = namespaced ? List.of("Role", "ClusterRole") : List.of("ClusterRole");
        if (!kinds.contains(kind)) {
            e.notSupported("roleRef.kind", GoStrings.quote(kind), kinds);
        }
        String name = GoValues.text(ref, "name");
        if (name.isEmpty()) {
            e.required("roleRef.name", "");
        } else {
            e.each("roleRef.name", name, NameRule.PATH_SEGMENT.check(name, false));
        }
        List<JsonNode> subjects = GoValues.items(b.get("subjects"));
        for (int i = 0; i < subjects.size(); i++) {
            subject(subjects.get(i), namespaced, "subjects[" + i + "]", e);
        }
    }

    private static void subject(JsonNode s, boolean namespaced, String path, Errs e) {
        String name = GoValues.text(s, "name");
        if (name.isEmpty()) {
            e.required(path + ".name", "");
        }
        String kind = GoValues.text(s, "kind");
        switch (kind) {
            case "ServiceAccount" -> {
                if (!name.isEmpty()) {
                    e.each(path + ".name", name, Identifiers.dns1123Subdomain(name));
                }
                String group = GoValues.text(s, "apiGroup");
                if (!group.isEmpty()) {
                    e.notSupported(path + ".apiGroup", GoStrings.quote(group), List.of(""));
                }
                if (!namespaced && GoValues.text(s, "namespace").isEmpty()) {
                    e.required(path + ".namespace", "");
                }
            }
            case "User", "Group" -> {
                String group = GoValues.has(s, "apiGroup") ? GoValues.text(s, "apiGroup") : GROUP;
                if (!group.equals(GROUP)) {
                    e.notSupported(path + ".apiGroup", GoStrings.quote(group), List.of(GROUP));
                }
            }
            default -> e.notSupported(path + ".kind", GoStrings.quote(kind), List.of("ServiceAccount", "User", "Group"));
        }
    }

    private static void roleRefImmutable(ObjectNode b, ObjectNode old, Errs e) {
        JsonNode ref = GoValues.at(b, "roleRef");
        JsonNode before = GoValues.at(old, "roleRef");
        for (String f : List.of("apiGroup", "kind", "name")) {
            if (!GoValues.text(ref, f).equals(GoValues.text(before, f))) {
                e.invalid("roleRef", "rbac.RoleRef{APIGroup:" + GoStrings.quote(GoValues.text(ref, "apiGroup")) + ", Kind:"
                        + GoStrings.quote(GoValues.text(ref, "kind")) + ", Name:" + GoStrings.quote(GoValues.text(ref, "name")) + "}",
                        "cannot change roleRef");
                return;
            }
        }
    }
}
