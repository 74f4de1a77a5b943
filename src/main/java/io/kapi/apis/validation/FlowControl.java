package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of flowcontrol.apiserver.k8s.io/v1 FlowSchemas, as kube 1.34's
 * {@code pkg/apis/flowcontrol/validation} {@code ValidateFlowSchema} (an update is the same check, as
 * {@code ValidateFlowSchemaUpdate}); PriorityLevelConfigurations are {@link PriorityLevels}.
 */
public final class FlowControl {

    public static final KindValidator FLOW_SCHEMA = Rules.of(FlowControl::flowSchema);
    public static final KindValidator PRIORITY_LEVEL = Rules.of(PriorityLevels::check);

    static final int MAX_MATCHING_PRECEDENCE = 10000;
    private static final List<String> DISTINGUISHERS = List.of("ByNamespace", "ByUser");
    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
            "proxy", "update", "watch");
    private static final List<String> SUBJECT_KINDS = List.of("Group", "ServiceAccount", "User");
    private static final String NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

    private FlowControl() {
    }

    private static void flowSchema(ObjectNode fs, Errs e) {
        String name = fs.path("metadata").path("name").asText("");
        JsonNode spec = fs.path("spec");
        spec(name, spec, e);
        if (MandatoryFlowControl.flowSchemaDiffers(name, spec)) {
            e.invalid("spec", "flowcontrol.FlowSchemaSpec{...}", "spec of '" + name + "' must equal the fixed value");
        }
        conditions(fs.path("status"), e);
    }

    /** {@code ValidateFlowSchemaSpec}. */
    private static void spec(String name, JsonNode spec, Errs e) {
        long p = spec.path("matchingPrecedence").asLong(0);
        String rendered = Long.toString(p);
        if (p <= 0) {
            e.invalid("spec.matchingPrecedence", rendered, "must be a positive value");
        }
        if (p > MAX_MATCHING_PRECEDENCE) {
            e.invalid("spec.matchingPrecedence", rendered, "must not be greater than " + MAX_MATCHING_PRECEDENCE);
        }
        if (p == 1 && !name.equals("exempt")) {
            e.invalid("spec.matchingPrecedence", rendered, "only the schema named 'exempt' may have matchingPrecedence 1");
        }
        JsonNode method = spec.get("distinguisherMethod");
        if (method != null && method.isObject() && !DISTINGUISHERS.contains(method.path("type").asText(""))) {
            e.notSupported("spec.distinguisherMethod.type", "flowcontrol.FlowDistinguisherMethod{Type:"
                    + GoStrings.quote(method.path("type").asText("")) + "}", DISTINGUISHERS);
        }
        String level = spec.path("priorityLevelConfiguration").path("name").asText("");
        if (level.isEmpty()) {
            e.required("spec.priorityLevelConfiguration.name", "must reference a priority level");
        } else {
            e.each("spec.priorityLevelConfiguration.name", level, Identifiers.dns1123Subdomain(level));
        }
        JsonNode rules = spec.path("rules");
        for (int i = 0; i < rules.size(); i++) {
            rule(rules.get(i), "spec.rules[" + i + "]", e);
        }
    }

    /** {@code ValidateFlowSchemaPolicyRulesWithSubjects}. */
    private static void rule(JsonNode rule, String path, Errs e) {
        JsonNode subjects = rule.path("subjects");
        if (subjects.isEmpty()) {
            e.required(path + ".subjects", "subjects must contain at least one value");
        }
        for (int i = 0; i < subjects.size(); i++) {
            subject(subjects.get(i), path + ".subjects[" + i + "]", e);
        }
        JsonNode resources = rule.path("resourceRules");
        JsonNode nonResources = rule.path("nonResourceRules");
        if (resources.isEmpty() && nonResources.isEmpty()) {
            e.required(path, "at least one of resourceRules and nonResourceRules has to be non-empty");
        }
        for (int i = 0; i < resources.size(); i++) {
            resourceRule(resources.get(i), path + ".resourceRules[" + i + "]", e);
        }
        for (int i = 0; i < nonResources.size(); i++) {
            nonResourceRule(nonResources.get(i), path + ".nonResourceRules[" + i + "]", e);
        }
    }

    /** {@code ValidateFlowSchemaSubject}: the member its kind names is required, the two others forbidden. */
    private static void subject(JsonNode subject, String path, Errs e) {
        String kind = subject.path("kind").asText("");
        switch (kind) {
            case "ServiceAccount" -> {
                serviceAccount(subject.get("serviceAccount"), path + ".serviceAccount", e);
                forbidOther(subject, "user", "User", path, e);
                forbidOther(subject, "group", "Group", path, e);
            }
            case "User" -> {
                named(subject.get("user"), path + ".user", "user is required when subject kind is 'User'", e);
                forbidOther(subject, "serviceAccount", "ServiceAccount", path, e);
                forbidOther(subject, "group", "Group", path, e);
            }
            case "Group" -> {
                named(subject.get("group"), path + ".group", "group is required when subject kind is 'Group'", e);
                forbidOther(subject, "serviceAccount", "ServiceAccount", path, e);
                forbidOther(subject, "user", "User", path, e);
            }
            default -> e.notSupported(path + ".kind", GoStrings.quote(kind), SUBJECT_KINDS);
        }
    }

    private static void forbidOther(JsonNode subject, String field, String kind, String path, Errs e) {
        if (present(subject.get(field))) {
            e.forbidden(path + "." + field, field + " is forbidden when subject kind is not '" + kind + "'");
        }
    }

    private static void named(JsonNode member, String path, String missing, Errs e) {
        if (!present(member)) {
            e.required(path, missing);
        } else if (member.path("name").asText("").isEmpty()) {
            e.required(path + ".name", "");
        }
    }

    /** {@code ValidateServiceAccountSubject}. */
    private static void serviceAccount(JsonNode sa, String path, Errs e) {
        if (!present(sa)) {
            e.required(path, "serviceAccount is required when subject kind is 'ServiceAccount'");
            return;
        }
        String name = sa.path("name").asText("");
        if (name.isEmpty()) {
            e.required(path + ".name", "");
        } else if (!name.equals("*")) {
            e.each(path + ".name", name, Identifiers.dns1123Subdomain(name));
        }
        String namespace = sa.path("namespace").asText("");
        if (namespace.isEmpty()) {
            e.required(path + ".namespace", "must specify namespace for service account");
        } else {
            e.each(path + ".namespace", namespace, Identifiers.dns1123Label(namespace));
        }
    }

    /** {@code ValidateFlowSchemaResourcePolicyRule}. */
    private static void resourceRule(JsonNode rule, String path, Errs e) {
        verbs(rule.get("verbs"), path + ".verbs", e);
        onlyWildcard(rule.get("apiGroups"), path + ".apiGroups", "resource rules must supply at least one api group",
                "api groups", e);
        onlyWildcard(rule.get("resources"), path + ".resources", "resource rules must supply at least one resource",
                "resources", e);
        JsonNode namespaces = rule.get("namespaces");
        List<String> list = strings(namespaces);
        if (list.isEmpty() && !rule.path("clusterScope").asBoolean(false)) {
            e.required(path + ".namespaces", "resource rules that are not cluster scoped must supply at least one namespace");
        } else if (list.contains("*")) {
            if (list.size() > 1) {
                e.invalid(path + ".namespaces", Go.stringSlice(namespaces), "if '*' is present, must not specify other namespaces");
            }
        } else {
            for (int i = 0; i < list.size(); i++) {
                String ns = list.get(i);
                for (String msg : Identifiers.dns1123Label(ns)) {
                    e.invalidString(path + ".namespaces[" + i + "]", ns, NS_INTRO + msg);
                }
            }
        }
    }

    private static void onlyWildcard(JsonNode values, String path, String missing, String what, Errs e) {
        List<String> list = strings(values);
        if (list.isEmpty()) {
            e.required(path, missing);
        } else if (list.size() > 1 && list.contains("*")) {
            e.invalid(path, Go.stringSlice(values), "if '*' is present, must not specify other " + what);
        }
    }

    /** {@code ValidateFlowSchemaNonResourcePolicyRule}. */
    private static void nonResourceRule(JsonNode rule, String path, Errs e) {
        verbs(rule.get("verbs"), path + ".verbs", e);
        JsonNode urls = rule.get("nonResourceURLs");
        List<String> list = strings(urls);
        if (list.isEmpty()) {
            e.required(path + ".nonResourceURLs", "nonResourceURLs must contain at least one value");
        } else if (list.contains("*")) {
            if (list.size() > 1) {
                e.invalid(path + ".nonResourceURLs", Go.stringSlice(urls),
                        "if '*' is present, must not specify other non-resource URLs");
            }
        } else {
            for (int i = 0; i < list.size(); i++) {
                String problem = urlPathProblem(list.get(i));
                if (problem != null) {
                    e.invalidString(path + ".nonResourceURLs[" + i + "]", list.get(i), problem);
                }
            }
        }
    }

    private static void verbs(JsonNode verbs, String path, Errs e) {
        List<String> list = strings(verbs);
        if (list.isEmpty()) {
            e.required(path, "verbs must contain at least one value");
        } else if (list.contains("*")) {
            if (list.size() > 1) {
                e.invalid(path, Go.stringSlice(verbs), "if '*' is present, must not specify other verbs");
            }
        } else if (!VERBS.containsAll(list)) {
            e.notSupported(path, Go.stringSlice(verbs), VERBS);
        }
    }

    /** {@code ValidateNonResourceURLPath}: its one message, null when the path is fine. */
    static String urlPathProblem(String path) {
        if (path.isEmpty()) {
            return "must not be empty";
        }
        if (path.equals("/")) {
            return null;
        }
        if (!path.startsWith("/")) {
            return "must start with slash";
        }
        if (path.contains(" ")) {
            return "must not contain white-space";
        }
        if (path.contains("//")) {
            return "must not contain double slash";
        }
        long wildcards = path.chars().filter(c -> c == '*').count();
        if (wildcards > 1 || wildcards == 1 && !path.endsWith("/*")) {
            return "wildcard can only do suffix matching";
        }
        return null;
    }

    /** {@code ValidateFlowSchemaStatus} / {@code ValidatePriorityLevelConfigurationStatus}: condition types. */
    static void conditions(JsonNode status, Errs e) {
        JsonNode conditions = status.path("conditions");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < conditions.size(); i++) {
            String type = conditions.get(i).path("type").asText("");
            String path = "status.conditions[" + i + "].type";
            if (!seen.add(type)) {
                e.duplicate(path, GoStrings.quote(type));
            }
            if (type.isEmpty()) {
                e.required(path, "must not be empty");
            }
        }
    }

    static boolean present(JsonNode v) {
        return v != null && !v.isNull() && !v.isMissingNode();
    }

    static List<String> strings(JsonNode list) {
        List<String> out = new ArrayList<>();
        if (list != null) {
            list.forEach(v -> out.add(v.asText("")));
        }
        return out;
    }
}
