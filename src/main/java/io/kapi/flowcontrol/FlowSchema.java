package io.kapi.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A FlowSchema as flow control uses it.
 *
 * @param name the object's name
 * @param uid the object's uid, sent back in {@code X-Kubernetes-PF-FlowSchema-UID}
 * @param precedence {@code spec.matchingPrecedence}: lower matches first, then by name
 * @param level the name of the priority level it routes to
 * @param distinguisher how its flows are told apart
 * @param rules its {@code spec.rules}: subjects and the request rules that go with them
 */
record FlowSchema(String name, String uid, int precedence, String level, Distinguisher distinguisher,
                  List<SubjectRules> rules) {

    static final String EXEMPT = "exempt";
    static final String CATCH_ALL = "catch-all";

    /** {@code spec.distinguisherMethod.type}; NONE when absent: all its requests are one flow. */
    enum Distinguisher { NONE, BY_USER, BY_NAMESPACE }

    /** One {@code PolicyRulesWithSubjects}: who, and which requests. */
    record SubjectRules(List<Subject> subjects, Rules rules) {
    }

    /**
     * One subject. {@code kind} is {@code User}, {@code Group} or {@code ServiceAccount}; {@code name} may
     * be {@code *}; {@code namespace} is the service account's.
     */
    record Subject(String kind, String name, String namespace) {
    }

    static FlowSchema parse(JsonNode object) {
        JsonNode spec = object.path("spec");
        Distinguisher distinguisher = switch (spec.path("distinguisherMethod").path("type").asText("")) {
            case "ByUser" -> Distinguisher.BY_USER;
            case "ByNamespace" -> Distinguisher.BY_NAMESPACE;
            default -> Distinguisher.NONE;
        };
        List<SubjectRules> rules = new ArrayList<>();
        for (JsonNode rule : spec.path("rules")) {
            List<Subject> subjects = new ArrayList<>();
            for (JsonNode s : rule.path("subjects")) {
                String kind = s.path("kind").asText();
                switch (kind) {
                    case "User" -> subjects.add(new Subject(kind, s.path("user").path("name").asText(), ""));
                    case "Group" -> subjects.add(new Subject(kind, s.path("group").path("name").asText(), ""));
                    case "ServiceAccount" -> subjects.add(new Subject(kind, s.path("serviceAccount").path("name").asText(),
                            s.path("serviceAccount").path("namespace").asText()));
                    default -> { }
                }
            }
            rules.add(new SubjectRules(List.copyOf(subjects), Rules.parse(rule)));
        }
        return new FlowSchema(object.path("metadata").path("name").asText(), object.path("metadata").path("uid").asText(),
                spec.path("matchingPrecedence").asInt(1000), spec.path("priorityLevelConfiguration").path("name").asText(),
                distinguisher, List.copyOf(rules));
    }

    /** kube's mandatory {@code exempt} schema, used while the object is missing: {@code system:masters}, everything. */
    static FlowSchema mandatoryExempt() {
        return everything(EXEMPT, 1, EXEMPT, Distinguisher.NONE, List.of(new Subject("Group", "system:masters", "")));
    }

    /** kube's mandatory {@code catch-all} schema, used while the object is missing: everyone, everything, by user. */
    static FlowSchema mandatoryCatchAll() {
        return everything(CATCH_ALL, 10000, CATCH_ALL, Distinguisher.BY_USER, List.of(
                new Subject("Group", "system:unauthenticated", ""), new Subject("Group", "system:authenticated", "")));
    }

    private static FlowSchema everything(String name, int precedence, String level, Distinguisher d, List<Subject> who) {
        Rules.Values all = new Rules.Values(true, java.util.Set.of("*"));
        Rules rules = new Rules(List.of(new Rules.ResourceRule(all, all, all, true, all)),
                List.of(new Rules.NonResourceRule(all, List.of("*"))));
        return new FlowSchema(name, "", precedence, level, d, List.of(new SubjectRules(who, rules)));
    }
}
