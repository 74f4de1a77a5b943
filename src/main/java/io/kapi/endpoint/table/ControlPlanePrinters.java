package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.integer;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** The tables of the control-plane groups: certificates, flowcontrol, admissionregistration and apiregistration. */
public final class ControlPlanePrinters {

    private static final String UNSET = "<unset>";
    private static final String FLOW_V1 = "flowcontrol.v1";
    private static final Doc PARAM_KIND = Doc.text("ParamKind specifies the kind of resources used to parameterize this policy");

    private ControlPlanePrinters() {
    }

    /** kube-aggregator's: the service ({@code Local} when none), and Available (with its reason unless True). */
    public static KindPrinter apiServices() {
        return KindPrinter.of(nameColumn(),
                string("Service", Doc.text("The reference to the service that hosts this API endpoint."),
                        (o, now) -> GoValues.has(o, "spec", "service")
                                ? GoValues.text(o, "spec", "service", "namespace") + "/" + GoValues.text(o, "spec", "service", "name")
                                : "Local"),
                string("Available", Doc.text("Whether this service is available."), (o, now) -> available(o)),
                age());
    }

    private static String available(JsonNode apiService) {
        for (JsonNode c : GoValues.items(apiService, "status", "conditions")) {
            if ("Available".equals(GoValues.text(c, "type"))) {
                String status = GoValues.text(c, "status");
                String reason = GoValues.text(c, "reason");
                return status.equals("True") || reason.isEmpty() ? status : status + " (" + reason + ")";
            }
        }
        return "Unknown";
    }

    public static KindPrinter certificateSigningRequests() {
        String spec = "CertificateSigningRequestSpec";
        return KindPrinter.of(nameColumn(),
                age(),
                string("SignerName", Doc.api("certificates.v1", spec, "signerName"),
                        (o, now) -> GoValues.textOr(o, Labels.NONE, "spec", "signerName")),
                string("Requestor", Doc.api("certificates.v1", spec, "request"), (o, now) -> GoValues.text(o, "spec", "username")),
                string("RequestedDuration", Doc.api("certificates.v1", spec, "expirationSeconds"),
                        (o, now) -> GoValues.has(o, "spec", "expirationSeconds")
                                ? HumanDuration.human(Duration.ofSeconds(GoValues.integer(o, "spec", "expirationSeconds")))
                                : Labels.NONE),
                string("Condition", Doc.api("certificates.v1", "CertificateSigningRequestStatus", "conditions"),
                        (o, now) -> csrStatus(o)));
    }

    /** Denied, else Approved, else Pending; then {@code ,Failed} and {@code ,Issued}. */
    private static String csrStatus(JsonNode csr) {
        boolean approved = false;
        boolean denied = false;
        boolean failed = false;
        for (JsonNode c : GoValues.items(csr, "status", "conditions")) {
            switch (GoValues.text(c, "type")) {
                case "Approved" -> approved = true;
                case "Denied" -> denied = true;
                case "Failed" -> failed = true;
                default -> {
                }
            }
        }
        String status = denied ? "Denied" : approved ? "Approved" : "Pending";
        if (failed) {
            status += ",Failed";
        }
        if (!GoValues.text(csr, "status", "certificate").isEmpty()) {
            status += ",Issued";
        }
        return status;
    }

    public static KindPrinter flowSchemas() {
        return KindPrinter.of(nameColumn(),
                string("PriorityLevel", Doc.api(FLOW_V1, "PriorityLevelConfigurationReference", "name"),
                        (o, now) -> GoValues.text(o, "spec", "priorityLevelConfiguration", "name")),
                string("MatchingPrecedence", Doc.api(FLOW_V1, "FlowSchemaSpec", "matchingPrecedence"),
                        (o, now) -> GoValues.integer(o, "spec", "matchingPrecedence")),
                string("DistinguisherMethod", Doc.api(FLOW_V1, "FlowSchemaSpec", "distinguisherMethod"),
                        (o, now) -> GoValues.textOr(o, Labels.NONE, "spec", "distinguisherMethod", "type")),
                age(),
                string("MissingPL", Doc.text("references a broken or non-existent PriorityLevelConfiguration"),
                        (o, now) -> dangling(o)))
                // kube lists flow schemas in the order they match: precedence, then name
                .withOrder(java.util.Comparator.<JsonNode>comparingLong(o -> GoValues.integer(o, "spec", "matchingPrecedence"))
                        .thenComparing(Obj::name));
    }

    public static KindPrinter priorityLevelConfigurations() {
        return KindPrinter.of(nameColumn(),
                string("Type", Doc.api(FLOW_V1, "PriorityLevelConfigurationSpec", "type"), (o, now) -> GoValues.text(o, "spec", "type")),
                string("NominalConcurrencyShares", Doc.api(FLOW_V1, "LimitedPriorityLevelConfiguration", "nominalConcurrencyShares"),
                        (o, now) -> limited(o, false, "nominalConcurrencyShares")),
                string("Queues", Doc.api(FLOW_V1, "QueuingConfiguration", "queues"), (o, now) -> limited(o, true, "queues")),
                string("HandSize", Doc.api(FLOW_V1, "QueuingConfiguration", "handSize"), (o, now) -> limited(o, true, "handSize")),
                string("QueueLengthLimit", Doc.api(FLOW_V1, "QueuingConfiguration", "queueLengthLimit"),
                        (o, now) -> limited(o, true, "queueLengthLimit")),
                age());
    }

    private static String dangling(JsonNode fs) {
        for (JsonNode c : GoValues.items(fs, "status", "conditions")) {
            if ("Dangling".equals(GoValues.text(c, "type"))) {
                return GoValues.text(c, "status");
            }
        }
        return "?";
    }

    /** A number of {@code spec.limited} (or of its queuing), or {@code <none>} when the level is not limited / queuing. */
    private static Object limited(JsonNode plc, boolean queuing, String field) {
        JsonNode limited = GoValues.at(plc, "spec", "limited");
        if (!limited.isObject()) {
            return Labels.NONE;
        }
        if (!queuing) {
            return GoValues.integer(limited, field);
        }
        JsonNode q = GoValues.at(limited, "limitResponse", "queuing");
        return q.isObject() ? GoValues.integer(q, field) : Labels.NONE;
    }

    /** Mutating and validating webhook configurations: how many webhooks. */
    public static KindPrinter webhookConfigurations() {
        return KindPrinter.of(nameColumn(),
                integer("Webhooks", Doc.text("Webhooks indicates the number of webhooks registered in this configuration"),
                        (o, now) -> (long) GoValues.size(o, "webhooks")),
                age());
    }

    public static KindPrinter validatingAdmissionPolicies() {
        return KindPrinter.of(nameColumn(),
                integer("Validations", Doc.text("Validations indicates the number of validation rules defined in this configuration"),
                        (o, now) -> (long) GoValues.size(o, "spec", "validations")),
                string("ParamKind", PARAM_KIND, (o, now) -> paramKind(o)),
                age());
    }

    public static KindPrinter mutatingAdmissionPolicies() {
        return KindPrinter.of(nameColumn(),
                integer("Mutations", Doc.text("Mutation indicates the number of mutations rules defined in this configuration"),
                        (o, now) -> (long) GoValues.size(o, "spec", "mutations")),
                string("ParamKind", PARAM_KIND, (o, now) -> paramKind(o)),
                age());
    }

    /** Validating and mutating admission policy bindings: the policy and the param. */
    public static KindPrinter policyBindings() {
        return KindPrinter.of(nameColumn(),
                string("PolicyName", Doc.text("PolicyName indicates the policy definition which the policy binding binded to"),
                        (o, now) -> GoValues.text(o, "spec", "policyName")),
                string("ParamRef", Doc.text("ParamRef indicates the param resource which sets the configration param"),
                        (o, now) -> paramRef(o)),
                age());
    }

    private static String paramKind(JsonNode policy) {
        JsonNode pk = GoValues.at(policy, "spec", "paramKind");
        return pk.isObject() ? GoValues.text(pk, "apiVersion") + "/" + GoValues.text(pk, "kind") : UNSET;
    }

    private static String paramRef(JsonNode binding) {
        JsonNode pr = GoValues.at(binding, "spec", "paramRef");
        if (!pr.isObject()) {
            return UNSET;
        }
        String name = GoValues.text(pr, "name");
        if (!name.isEmpty()) {
            String ns = GoValues.text(pr, "namespace");
            return (ns.isEmpty() ? "*" : ns) + "/" + name;
        }
        if (GoValues.has(pr, "selector")) {
            return goStructString(GoValues.at(pr, "selector"));
        }
        return UNSET;
    }

    /** Go's generated {@code LabelSelector.String()}, which kube prints here: {@code &LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}}. */
    static String goStructString(JsonNode selector) {
        StringBuilder s = new StringBuilder("&LabelSelector{MatchLabels:map[string]string{");
        TreeMap<String, String> labels = new TreeMap<>();
        JsonNode ml = GoValues.at(selector, "matchLabels");
        if (ml.isObject()) {
            ml.properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        }
        labels.forEach((k, v) -> s.append(k).append(": ").append(v).append(','));
        s.append("},MatchExpressions:[]LabelSelectorRequirement{");
        for (JsonNode e : GoValues.items(selector, "matchExpressions")) {
            List<String> values = new ArrayList<>();
            GoValues.items(e, "values").forEach(v -> values.add(v.asText()));
            s.append("LabelSelectorRequirement{Key:").append(GoValues.text(e, "key"))
                    .append(",Operator:").append(GoValues.text(e, "operator"))
                    .append(",Values:[").append(String.join(" ", values)).append("],},");
        }
        return s.append("},}").toString();
    }
}
