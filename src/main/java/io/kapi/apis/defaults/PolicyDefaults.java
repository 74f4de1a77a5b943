package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.ensure;
import static io.kapi.apis.defaults.Fields.integer;
import static io.kapi.apis.defaults.Fields.integerPointer;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.text;
import static io.kapi.apis.defaults.Fields.textPointer;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Defaults of the cluster-policy groups: rbac.authorization.k8s.io, scheduling.k8s.io,
 * admissionregistration.k8s.io and flowcontrol.apiserver.k8s.io.
 */
public final class PolicyDefaults {

    static final String RBAC_GROUP = "rbac.authorization.k8s.io";

    private PolicyDefaults() {
    }

    /** roleRef.apiGroup, and subjects' apiGroup for User and Group; a ServiceAccount's stays empty (JSON omits it). */
    public static void binding(ObjectNode object) {
        ObjectNode roleRef = child(object, "roleRef");
        if (roleRef != null) {
            text(roleRef, "apiGroup", RBAC_GROUP);
        }
        for (ObjectNode subject : items(object, "subjects")) {
            if (Fields.blank(subject, "apiGroup")) {
                switch (Fields.text(subject, "kind")) {
                    case "User", "Group" -> subject.put("apiGroup", RBAC_GROUP);
                    default -> { }
                }
            }
        }
    }

    public static void priorityClass(ObjectNode object) {
        textPointer(object, "preemptionPolicy", "PreemptLowerPriority");
    }

    /** Each webhook: failurePolicy Fail, matchPolicy Equivalent, selectors {}, timeout 10s, rules' scope. */
    public static void webhookConfiguration(ObjectNode object, boolean mutating) {
        for (ObjectNode webhook : items(object, "webhooks")) {
            textPointer(webhook, "failurePolicy", "Fail");
            textPointer(webhook, "matchPolicy", "Equivalent");
            Fields.emptyObject(webhook, "namespaceSelector");
            Fields.emptyObject(webhook, "objectSelector");
            integerPointer(webhook, "timeoutSeconds", 10);
            if (mutating) {
                textPointer(webhook, "reinvocationPolicy", "Never");
            }
            rules(webhook, "rules");
            servicePort(child(webhook, "clientConfig"));
        }
    }

    /** A webhook client config's service port 443 (also APIService and CRD conversion webhooks). */
    static void servicePort(ObjectNode clientConfig) {
        ObjectNode service = child(clientConfig, "service");
        if (service != null) {
            integerPointer(service, "port", 443);
        }
    }

    /** A validating or mutating admission policy: failurePolicy Fail, its matchConstraints' defaults. */
    public static void validatingAdmissionPolicy(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        textPointer(spec, "failurePolicy", "Fail");
        matchResources(child(spec, "matchConstraints"));
    }

    public static void validatingAdmissionPolicyBinding(ObjectNode object) {
        matchResources(child(child(object, "spec"), "matchResources"));
    }

    public static void flowSchema(ObjectNode object) {
        integer(ensure(object, "spec"), "matchingPrecedence", 1000);
    }

    public static void priorityLevelConfiguration(ObjectNode object) {
        ObjectNode spec = child(object, "spec");
        ObjectNode limited = child(spec, "limited");
        if (limited != null) {
            integerPointer(limited, "nominalConcurrencyShares", 30);
            integerPointer(limited, "lendablePercent", 0);
            ObjectNode queuing = child(child(limited, "limitResponse"), "queuing");
            if (queuing != null) {
                integer(queuing, "handSize", 8);
                integer(queuing, "queues", 64);
                integer(queuing, "queueLengthLimit", 50);
            }
        }
        ObjectNode exempt = child(spec, "exempt");
        if (exempt != null) {
            integerPointer(exempt, "nominalConcurrencyShares", 0);
            integerPointer(exempt, "lendablePercent", 0);
        }
    }

    private static void matchResources(ObjectNode match) {
        if (match == null) {
            return;
        }
        textPointer(match, "matchPolicy", "Equivalent");
        Fields.emptyObject(match, "namespaceSelector");
        Fields.emptyObject(match, "objectSelector");
        rules(match, "resourceRules");
        rules(match, "excludeResourceRules");
    }

    private static void rules(ObjectNode holder, String field) {
        for (ObjectNode rule : items(holder, field)) {
            textPointer(rule, "scope", "*");
        }
    }
}
