package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.ObjectMeta;
import java.util.Optional;

/**
 * A Job's {@code podFailurePolicy} and {@code successPolicy} as kube's job controller reads them
 * ({@code pod_failure_policy.go}, {@code success_policy.go}).
 */
final class JobPolicies {

    private JobPolicies() {
    }

    /**
     * What the pod failure policy says about one failed Pod: the first rule that matches decides.
     *
     * @param failJob the Job's failure message when a FailJob rule matched
     * @param countFailed whether the failure counts against backoffLimit (an Ignore rule: not)
     * @param action the matched rule's action, or null when none matched
     */
    record Match(String failJob, boolean countFailed, String action) {
        static final Match NONE = new Match(null, true, null);
    }

    static Match matchFailure(JsonNode policy, JsonNode pod) {
        if (policy == null || policy.isMissingNode() || policy.isNull()) {
            return Match.NONE;
        }
        ObjectMeta meta = ObjectMeta.of((com.fasterxml.jackson.databind.node.ObjectNode) pod);
        int index = 0;
        for (JsonNode rule : policy.path("rules")) {
            String action = rule.path("action").asText();
            String why = null;
            if (rule.hasNonNull("onExitCodes")) {
                JsonNode c = exitCodeMatch(pod.path("status"), rule.path("onExitCodes")).orElse(null);
                if (c != null) {
                    why = "Container " + c.path("name").asText() + " for pod " + meta.namespace() + "/" + meta.name()
                            + " failed with exit code " + c.path("state").path("terminated").path("exitCode").asInt()
                            + " matching " + action + " rule at index " + index;
                }
            } else if (rule.hasNonNull("onPodConditions")) {
                JsonNode c = conditionMatch(pod.path("status"), rule.path("onPodConditions")).orElse(null);
                if (c != null) {
                    why = "Pod " + meta.namespace() + "/" + meta.name() + " has condition " + c.path("type").asText()
                            + " matching " + action + " rule at index " + index;
                }
            }
            if (why != null) {
                return switch (action) {
                    case "Ignore" -> new Match(null, false, action);
                    case "FailJob" -> new Match(why, true, action);
                    default -> new Match(null, true, action); // Count, FailIndex
                };
            }
            index++;
        }
        return Match.NONE;
    }

    private static Optional<JsonNode> exitCodeMatch(JsonNode status, JsonNode requirement) {
        for (String list : new String[] {"containerStatuses", "initContainerStatuses"}) {
            for (JsonNode c : status.path(list)) {
                JsonNode terminated = c.path("state").path("terminated");
                if (terminated.isMissingNode() || terminated.isNull()) {
                    continue;
                }
                if (requirement.hasNonNull("containerName")
                        && !requirement.path("containerName").asText().equals(c.path("name").asText())) {
                    continue;
                }
                int code = terminated.path("exitCode").asInt();
                if (code == 0) {
                    continue;
                }
                boolean listed = false;
                for (JsonNode v : requirement.path("values")) {
                    listed |= v.asInt() == code;
                }
                String op = requirement.path("operator").asText();
                if ((op.equals("In") && listed) || (op.equals("NotIn") && !listed)) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> conditionMatch(JsonNode status, JsonNode patterns) {
        for (JsonNode c : status.path("conditions")) {
            for (JsonNode p : patterns) {
                if (c.path("type").asText().equals(p.path("type").asText())
                        && c.path("status").asText().equals(p.path("status").asText("True"))) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    /** kube's {@code matchSuccessPolicy}: the message of the first rule the succeeded indexes meet. */
    static Optional<String> matchSuccess(JsonNode policy, int completions, IndexSet succeeded) {
        if (policy == null || policy.isMissingNode() || policy.isNull() || succeeded.total() == 0) {
            return Optional.empty();
        }
        int index = 0;
        for (JsonNode rule : policy.path("rules")) {
            Integer count = rule.hasNonNull("succeededCount") ? rule.path("succeededCount").asInt() : null;
            if (rule.hasNonNull("succeededIndexes")) {
                IndexSet required = IndexSet.parse(rule.path("succeededIndexes").asText(), completions);
                if (required.total() > 0 && required.satisfiedBy(succeeded, count)) {
                    return Optional.of("Matched rules at index " + index);
                }
            } else if (count != null && succeeded.total() >= count) {
                return Optional.of("Matched rules at index " + index);
            }
            index++;
        }
        return Optional.empty();
    }
}
