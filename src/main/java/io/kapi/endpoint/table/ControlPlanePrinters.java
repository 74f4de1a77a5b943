package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Column.age;
import static io.kapi.endpoint.table.Column.integer;
import static io.kapi.endpoint.table.Column.nameColumn;
import static io.kapi.endpoint.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The tables of the control-plane groups: certificates, flowcontrol, admissionregistration and apiregistration. */
final class ControlPlanePrinters {

    private static final String UNSET = "<unset>";

    private ControlPlanePrinters() {
    }

    static void register(Map<String, KindPrinter> into) {
        certificates(into);
        flowControl(into);
        admission(into);
        apiServices(into);
    }

    /** kube-aggregator's: the service ({@code Local} when none), and Available (with its reason unless True). */
    private static void apiServices(Map<String, KindPrinter> into) {
        into.put("apiregistration.k8s.io/APIService", KindPrinter.of(nameColumn(),
                string("Service", Doc.text("The reference to the service that hosts this API endpoint."),
                        (o, now) -> Obj.has(o, "spec", "service")
                                ? Obj.str(o, "spec", "service", "namespace") + "/" + Obj.str(o, "spec", "service", "name")
                                : "Local"),
                string("Available", Doc.text("Whether this service is available."), (o, now) -> available(o)),
                age()));
    }

    private static String available(JsonNode apiService) {
        for (JsonNode c : Obj.list(apiService, "status", "conditions")) {
            if ("Available".equals(Obj.str(c, "type"))) {
                String status = Obj.str(c, "status");
                String reason = Obj.str(c, "reason");
                return status.equals("True") || reason.isEmpty() ? status : status + " (" + reason + ")";
            }
        }
        return "Unknown";
    }

    private static void certificates(Map<String, KindPrinter> into) {
        String spec = "CertificateSigningRequestSpec";
        into.put("certificates.k8s.io/CertificateSigningRequest", KindPrinter.of(nameColumn(),
                age(),
                string("SignerName", Doc.api("certificates.v1", spec, "signerName"),
                        (o, now) -> Obj.strOr(o, Labels.NONE, "spec", "signerName")),
                string("Requestor", Doc.api("certificates.v1", spec, "request"), (o, now) -> Obj.str(o, "spec", "username")),
                string("RequestedDuration", Doc.api("certificates.v1", spec, "expirationSeconds"),
                        (o, now) -> Obj.has(o, "spec", "expirationSeconds")
                                ? HumanDuration.human(Duration.ofSeconds(Obj.num(o, "spec", "expirationSeconds")))
                                : Labels.NONE),
                string("Condition", Doc.api("certificates.v1", "CertificateSigningRequestStatus", "conditions"),
                        (o, now) -> csrStatus(o))));
        into.put("certificates.k8s.io/ClusterTrustBundle", KindPrinter.of(nameColumn(),
                string("SignerName", Doc.api("certificates.v1beta1", "ClusterTrustBundleSpec", "signerName"),
                        (o, now) -> Obj.strOr(o, Labels.NONE, "spec", "signerName"))));
    }

    /** Denied, else Approved, else Pending; then {@code ,Failed} and {@code ,Issued}. */
    private static String csrStatus(JsonNode csr) {
        boolean approved = false;
        boolean denied = false;
        boolean failed = false;
        for (JsonNode c : Obj.list(csr, "status", "conditions")) {
            switch (Obj.str(c, "type")) {
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
        if (!Obj.str(csr, "status", "certificate").isEmpty()) {
            status += ",Issued";
        }
        return status;
    }

    private static void flowControl(Map<String, KindPrinter> into) {
        String v1 = "flowcontrol.v1";
        into.put("flowcontrol.apiserver.k8s.io/FlowSchema", KindPrinter.of(nameColumn(),
                string("PriorityLevel", Doc.api(v1, "PriorityLevelConfigurationReference", "name"),
                        (o, now) -> Obj.str(o, "spec", "priorityLevelConfiguration", "name")),
                string("MatchingPrecedence", Doc.api(v1, "FlowSchemaSpec", "matchingPrecedence"),
                        (o, now) -> Obj.num(o, "spec", "matchingPrecedence")),
                string("DistinguisherMethod", Doc.api(v1, "FlowSchemaSpec", "distinguisherMethod"),
                        (o, now) -> Obj.strOr(o, Labels.NONE, "spec", "distinguisherMethod", "type")),
                age(),
                string("MissingPL", Doc.text("references a broken or non-existent PriorityLevelConfiguration"),
                        (o, now) -> dangling(o)))
                // kube lists flow schemas in the order they match: precedence, then name
                .withOrder(java.util.Comparator.<JsonNode>comparingLong(o -> Obj.num(o, "spec", "matchingPrecedence"))
                        .thenComparing(Obj::name)));
        into.put("flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration", KindPrinter.of(nameColumn(),
                string("Type", Doc.api(v1, "PriorityLevelConfigurationSpec", "type"), (o, now) -> Obj.str(o, "spec", "type")),
                string("NominalConcurrencyShares", Doc.api(v1, "LimitedPriorityLevelConfiguration", "nominalConcurrencyShares"),
                        (o, now) -> limited(o, false, "nominalConcurrencyShares")),
                string("Queues", Doc.api(v1, "QueuingConfiguration", "queues"), (o, now) -> limited(o, true, "queues")),
                string("HandSize", Doc.api(v1, "QueuingConfiguration", "handSize"), (o, now) -> limited(o, true, "handSize")),
                string("QueueLengthLimit", Doc.api(v1, "QueuingConfiguration", "queueLengthLimit"),
                        (o, now) -> limited(o, true, "queueLengthLimit")),
                age()));
    }

    private static String dangling(JsonNode fs) {
        for (JsonNode c : Obj.list(fs, "status", "conditions")) {
            if ("Dangling".equals(Obj.str(c, "type"))) {
                return Obj.str(c, "status");
            }
        }
        return "?";
    }

    /** A number of {@code spec.limited} (or of its queuing), or {@code <none>} when the level is not limited / queuing. */
    private static Object limited(JsonNode plc, boolean queuing, String field) {
        JsonNode limited = Obj.at(plc, "spec", "limited");
        if (!limited.isObject()) {
            return Labels.NONE;
        }
        if (!queuing) {
            return Obj.num(limited, field);
        }
        JsonNode q = Obj.at(limited, "limitResponse", "queuing");
        return q.isObject() ? Obj.num(q, field) : Labels.NONE;
    }

    private static void admission(Map<String, KindPrinter> into) {
        String g = "admissionregistration.k8s.io/";
        Doc webhooks = Doc.text("Webhooks indicates the number of webhooks registered in this configuration");
        into.put(g + "MutatingWebhookConfiguration", KindPrinter.of(nameColumn(),
                integer("Webhooks", webhooks, (o, now) -> (long) Obj.size(o, "webhooks")), age()));
        into.put(g + "ValidatingWebhookConfiguration", KindPrinter.of(nameColumn(),
                integer("Webhooks", webhooks, (o, now) -> (long) Obj.size(o, "webhooks")), age()));
        Doc paramKind = Doc.text("ParamKind specifies the kind of resources used to parameterize this policy");
        into.put(g + "ValidatingAdmissionPolicy", KindPrinter.of(nameColumn(),
                integer("Validations", Doc.text("Validations indicates the number of validation rules defined in this configuration"),
                        (o, now) -> (long) Obj.size(o, "spec", "validations")),
                string("ParamKind", paramKind, (o, now) -> paramKind(o)),
                age()));
        into.put(g + "MutatingAdmissionPolicy", KindPrinter.of(nameColumn(),
                integer("Mutations", Doc.text("Mutation indicates the number of mutations rules defined in this configuration"),
                        (o, now) -> (long) Obj.size(o, "spec", "mutations")),
                string("ParamKind", paramKind, (o, now) -> paramKind(o)),
                age()));
        KindPrinter binding = KindPrinter.of(nameColumn(),
                string("PolicyName", Doc.text("PolicyName indicates the policy definition which the policy binding binded to"),
                        (o, now) -> Obj.str(o, "spec", "policyName")),
                string("ParamRef", Doc.text("ParamRef indicates the param resource which sets the configration param"),
                        (o, now) -> paramRef(o)),
                age());
        into.put(g + "ValidatingAdmissionPolicyBinding", binding);
        into.put(g + "MutatingAdmissionPolicyBinding", binding);
    }

    private static String paramKind(JsonNode policy) {
        JsonNode pk = Obj.at(policy, "spec", "paramKind");
        return pk.isObject() ? Obj.str(pk, "apiVersion") + "/" + Obj.str(pk, "kind") : UNSET;
    }

    private static String paramRef(JsonNode binding) {
        JsonNode pr = Obj.at(binding, "spec", "paramRef");
        if (!pr.isObject()) {
            return UNSET;
        }
        String name = Obj.str(pr, "name");
        if (!name.isEmpty()) {
            String ns = Obj.str(pr, "namespace");
            return (ns.isEmpty() ? "*" : ns) + "/" + name;
        }
        if (Obj.has(pr, "selector")) {
            return goStructString(Obj.at(pr, "selector"));
        }
        return UNSET;
    }

    /** Go's generated {@code LabelSelector.String()}, which kube prints here: {@code &LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}}. */
    static String goStructString(JsonNode selector) {
        StringBuilder s = new StringBuilder("&LabelSelector{MatchLabels:map[string]string{");
        TreeMap<String, String> labels = new TreeMap<>();
        JsonNode ml = Obj.at(selector, "matchLabels");
        if (ml.isObject()) {
            ml.properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        }
        labels.forEach((k, v) -> s.append(k).append(": ").append(v).append(','));
        s.append("},MatchExpressions:[]LabelSelectorRequirement{");
        for (JsonNode e : Obj.list(selector, "matchExpressions")) {
            List<String> values = new ArrayList<>();
            Obj.list(e, "values").forEach(v -> values.add(v.asText()));
            s.append("LabelSelectorRequirement{Key:").append(Obj.str(e, "key"))
                    .append(",Operator:").append(Obj.str(e, "operator"))
                    .append(",Values:[").append(String.join(" ", values)).append("],},");
        }
        return s.append("},}").toString();
    }
}
