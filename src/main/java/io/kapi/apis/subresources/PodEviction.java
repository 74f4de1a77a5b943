package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.ResponseWriter;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.ListOptions;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.Write;
import io.kapi.request.RequestContext;
import io.kapi.request.Verb;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * {@code POST .../pods/{name}/eviction} ({@code policy/v1 Eviction}), as kube-apiserver's
 * {@code EvictionREST}: a pod that is terminal, pending or already being deleted is deleted outright;
 * otherwise the one PodDisruptionBudget selecting it must allow a disruption, which is then taken
 * from its {@code status.disruptionsAllowed} before the pod is deleted with the eviction's
 * {@code deleteOptions}. Answers 201 with a Success Status; 429 when the budget forbids it; a 500
 * Failure Status when more than one budget selects the pod.
 *
 * @param pods the store of core/v1 pods
 * @param budgets the store of policy/v1 poddisruptionbudgets
 */
public record PodEviction(Codecs codecs, ResourceStore pods, ResourceStore budgets, Clock clock)
        implements VerbHandler {

    static final GroupVersionKind EVICTION = new GroupVersionKind("policy", "v1", "Eviction");
    static final String VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
    private static final GroupVersionResource PDB = new GroupVersionResource("policy", "v1", "poddisruptionbudget");
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    /** The resource kube's eviction names in its precondition conflicts ({@code GroupResource{Resource: "Pod"}}). */
    private static final GroupVersionResource POD = new GroupVersionResource("", "v1", "Pod");
    private static final int MAX_ATTEMPTS = 20;
    /** kube-apiserver refuses evictions while this many are not yet confirmed by the PDB controller. */
    private static final int MAX_DISRUPTED_PODS = 2000;

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (r.info().verb() != Verb.CREATE) {
            throw ApiException.methodNotAllowed();
        }
        ResponseWriter.Negotiated response = codecs.writer().negotiatePlain(r.http());
        boolean dryRunParam = r.dryRun();
        ObjectNode eviction = codecs.decoder().decode(r.http(), EVICTION).object();
        String name = r.info().name();
        if (!ObjectMeta.of(eviction).name().equals(name)) {
            throw Replies.nameMismatch("Eviction");
        }
        DeleteOptions options = deleteOptions(eviction.path("deleteOptions"), dryRunParam);
        ObjectNode result = evict(r.context(), r.info().namespace(), name, options);
        return response.object(result.path("code").asInt(), result);
    }

    /** Runs the eviction; returns the Status to answer with. */
    ObjectNode evict(RequestContext ctx, String namespace, String name, DeleteOptions options) {
        boolean retryConflicts = options.preconditionResourceVersion() == null;
        ObjectNode pod;
        for (int attempt = 1; ; attempt++) {
            pod = pods.get(namespace, name);
            if (!canIgnoreBudget(pod)) {
                break;
            }
            DeleteOptions direct = options;
            if (enforceResourceVersion(pod) && options.preconditionResourceVersion() == null) {
                direct = withResourceVersion(options, ObjectMeta.of(pod).resourceVersion());
            }
            try {
                addConditionAndDelete(ctx, namespace, name, direct);
                return Replies.created();
            } catch (ApiException e) {
                if (!retryConflicts || e.reason() != StatusReason.CONFLICT || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
        List<ObjectNode> matching = budgetsFor(pod);
        if (matching.size() > 1) {
            return Replies.failure(
                    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
                    500);
        }
        boolean unreadyWithinBudget = false;
        String budgetName = null;
        if (matching.size() == 1) {
            ObjectNode budget = matching.getFirst();
            budgetName = ObjectMeta.of(budget).name();
            JsonNode status = budget.path("status");
            long currentHealthy = status.path("currentHealthy").asLong();
            long desiredHealthy = status.path("desiredHealthy").asLong();
            if (!isReady(pod) && allowsUnhealthy(budget, currentHealthy, desiredHealthy)) {
                unreadyWithinBudget = true;
            } else {
                takeDisruption(ctx, namespace, name, budget, options.dryRun());
            }
        }
        DeleteOptions delete = unreadyWithinBudget
                ? withResourceVersion(options, ObjectMeta.of(pod).resourceVersion()) : options;
        try {
            addConditionAndDelete(ctx, namespace, name, delete);
        } catch (ApiException e) {
            if (e.reason() == StatusReason.CONFLICT && unreadyWithinBudget && options.preconditionResourceVersion() == null) {
                throw stillProcessing(budgetName);
            }
            throw e;
        }
        return Replies.created();
    }

    /**
     * kube's {@code addConditionAndDeletePod}: unless a dry run, the pod is first marked with condition
     * DisruptionTarget (True, EvictionByEvictionAPI) through its status, on the latest pod (the delete's
     * preconditions checked against it, a resourceVersion precondition moved on to the version written), then
     * deleted.
     */
    private void addConditionAndDelete(RequestContext ctx, String namespace, String name, DeleteOptions given) {
        DeleteOptions options = given;
        if (!given.dryRun()) {
            ObjectNode updated = pods.update(ctx, namespace, name, current -> {
                if (current == null) {
                    throw ApiException.notFound(PODS, name);
                }
                checkPreconditions(current, given);
                ObjectNode pod = current.deepCopy();
                disruptionTarget(pod.with("status").withArray("conditions"));
                return pod;
            }, Write.subresource("status", null)).object();
            if (options.preconditionResourceVersion() != null && !options.preconditionResourceVersion().isEmpty()) {
                options = withResourceVersion(options, ObjectMeta.of(updated).resourceVersion());
            }
        }
        pods.delete(ctx, namespace, name, options);
    }

    private static void checkPreconditions(ObjectNode pod, DeleteOptions options) {
        ObjectMeta meta = ObjectMeta.of(pod);
        String uid = options.preconditionUid();
        if (uid != null && !uid.isEmpty() && !uid.equals(meta.uid())) {
            throw ApiException.conflict(POD, meta.name(), ("the UID in the precondition (%s) does not match the UID "
                    + "in record (%s). The object might have been deleted and then recreated").formatted(uid, meta.uid()));
        }
        String rv = options.preconditionResourceVersion();
        if (rv != null && !rv.isEmpty() && !rv.equals(meta.resourceVersion())) {
            throw ApiException.conflict(POD, meta.name(), ("the ResourceVersion in the precondition (%s) does not "
                    + "match the ResourceVersion in record (%s). The object might have been modified")
                    .formatted(rv, meta.resourceVersion()));
        }
    }

    /** {@code UpdatePodCondition} with DisruptionTarget: the transition time kept while the status is. */
    private void disruptionTarget(com.fasterxml.jackson.databind.node.ArrayNode conditions) {
        String now = ObjectMeta.format(clock.instant());
        for (JsonNode c : conditions) {
            if (c.path("type").asText().equals("DisruptionTarget")) {
                ObjectNode condition = (ObjectNode) c;
                if (!condition.path("status").asText().equals("True")) {
                    condition.put("lastTransitionTime", now);
                }
                condition.put("status", "True");
                condition.put("reason", "EvictionByEvictionAPI");
                condition.put("message", "Eviction API: evicting");
                return;
            }
        }
        conditions.addObject().put("type", "DisruptionTarget").put("status", "True").putNull("lastProbeTime")
                .put("lastTransitionTime", now).put("reason", "EvictionByEvictionAPI")
                .put("message", "Eviction API: evicting");
    }

    /** An unready pod may go without using the budget when the application is healthy anyway. */
    private static boolean allowsUnhealthy(ObjectNode budget, long currentHealthy, long desiredHealthy) {
        if (budget.path("spec").path("unhealthyPodEvictionPolicy").asText().equals("AlwaysAllow")) {
            return true;
        }
        return currentHealthy >= desiredHealthy && desiredHealthy > 0;
    }

    /** checkAndDecrement: the store runs it again on a fresh budget after a lost race. */
    private void takeDisruption(RequestContext ctx, String namespace, String podName, ObjectNode budget,
                                boolean dryRun) {
        if (dryRun) {
            decremented(budget, podName);
            return;
        }
        budgets.update(ctx, namespace, ObjectMeta.of(budget).name(), current -> {
            if (current == null) {
                throw ApiException.notFound(PDB, ObjectMeta.of(budget).name());
            }
            return decremented(current, podName);
        }, Write.subresource("status", null));
    }

    /** The budget with one disruption taken for {@code podName}, or the error that refuses it. */
    private ObjectNode decremented(ObjectNode budget, String podName) {
        String name = ObjectMeta.of(budget).name();
        ObjectNode copy = budget.deepCopy();
        ObjectNode status = copy.with("status");
        if (status.path("observedGeneration").asLong() < ObjectMeta.of(budget).generation()) {
            throw stillProcessing(name);
        }
        long allowed = status.path("disruptionsAllowed").asLong();
        if (allowed < 0) {
            throw ApiException.forbidden(PDB, name, "pdb disruptions allowed is negative", List.of());
        }
        if (status.path("disruptedPods").size() > MAX_DISRUPTED_PODS) {
            throw ApiException.forbidden(PDB, name,
                    "DisruptedPods map too big - too many evictions not confirmed by PDB controller", List.of());
        }
        if (allowed == 0) {
            String why = "The disruption budget %s needs %d healthy pods and has %d currently".formatted(name,
                    status.path("desiredHealthy").asLong(), status.path("currentHealthy").asLong());
            throw tooManyRequests(why, null);
        }
        status.put("disruptionsAllowed", allowed - 1);
        if (allowed - 1 == 0) {
            insufficientPods(status, ObjectMeta.of(budget).generation());
        }
        status.with("disruptedPods").put(podName, ObjectMeta.format(clock.instant()));
        return copy;
    }

    /** pdbhelper.UpdateDisruptionAllowedCondition once no disruption is left. */
    private void insufficientPods(ObjectNode status, long generation) {
        var conditions = status.withArray("conditions");
        ObjectNode condition = null;
        for (JsonNode c : conditions) {
            if (c.path("type").asText().equals("DisruptionAllowed")) {
                condition = (ObjectNode) c;
            }
        }
        if (condition == null) {
            condition = conditions.addObject();
            condition.put("type", "DisruptionAllowed");
        }
        if (!condition.path("status").asText().equals("False")) {
            condition.put("lastTransitionTime", ObjectMeta.format(clock.instant()));
        }
        condition.put("status", "False");
        condition.put("reason", "InsufficientPods");
        condition.put("message", "");
        condition.put("observedGeneration", status.path("observedGeneration").asLong(generation));
    }

    private static ApiException stillProcessing(String budget) {
        return tooManyRequests("The disruption budget %s is still being processed by the server.".formatted(budget), 10);
    }

    private static ApiException tooManyRequests(String cause, Integer retryAfter) {
        return new ApiException(StatusReason.TOO_MANY_REQUESTS, 429, VIOLATION, new ApiException.Details(null, null,
                null, List.of(new StatusCause("DisruptionBudget", cause, null)), retryAfter));
    }

    /** The budgets in the pod's namespace whose non-empty selector matches the pod's labels. */
    private List<ObjectNode> budgetsFor(ObjectNode pod) {
        ObjectMeta meta = ObjectMeta.of(pod);
        return budgets.list(meta.namespace(), ListOptions.ALL).items().stream()
                .filter(b -> selects(b.path("spec").path("selector"), meta.labels()))
                .toList();
    }

    /**
     * Whether a budget's selector selects the pod: kube's eviction skips a budget whose selector does not
     * convert, or is empty or missing ("it should match nothing, not everything").
     */
    private static boolean selects(JsonNode selector, Map<String, String> labels) {
        try {
            LabelSelector s = LabelSelector.fromObject(selector);
            return !s.isEverything() && s.matches(labels);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean canIgnoreBudget(ObjectNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return phase.equals("Succeeded") || phase.equals("Failed") || phase.equals("Pending")
                || !ObjectMeta.of(pod).deletionTimestamp().isEmpty();
    }

    private static boolean enforceResourceVersion(ObjectNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return !phase.equals("Succeeded") && !phase.equals("Failed") && ObjectMeta.of(pod).deletionTimestamp().isEmpty();
    }

    private static boolean isReady(ObjectNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                return c.path("status").asText().equals("True");
            }
        }
        return false;
    }

    private static DeleteOptions withResourceVersion(DeleteOptions o, String rv) {
        return new DeleteOptions(o.preconditionUid(), rv, o.dryRun(), o.propagationPolicy(), o.gracePeriodSeconds());
    }

    /** The eviction's {@code deleteOptions}; a dry run in the query or the body applies to both. */
    static DeleteOptions deleteOptions(JsonNode body, boolean dryRunParam) {
        boolean dryRun = dryRunParam;
        for (JsonNode v : body.path("dryRun")) {
            if (!v.asText().equals("All")) {
                throw ApiException.badRequest("Invalid dry run value: [" + v.asText() + "], supported values: All");
            }
            dryRun = true;
        }
        JsonNode pre = body.path("preconditions");
        String propagation = GoValues.textPointer(body, "propagationPolicy");
        if (propagation == null && body.path("orphanDependents").asBoolean(false)) {
            propagation = "Orphan";
        }
        Long grace = body.hasNonNull("gracePeriodSeconds") ? body.get("gracePeriodSeconds").asLong() : null;
        return new DeleteOptions(GoValues.textPointer(pre, "uid"), GoValues.textPointer(pre, "resourceVersion"), dryRun, propagation, grace);
    }
}
