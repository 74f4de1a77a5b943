package io.kapi.controllers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.policy.PolicyTypeChecker;
import io.kapi.client.LocalClient;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.Registry;
import java.util.List;

/**
 * kube-controller-manager's validatingadmissionpolicy-status controller, for standalone mode: a policy
 * whose {@code metadata.generation} is newer than its {@code status.observedGeneration} is type checked
 * ({@link PolicyTypeChecker}) and gets {@code status.observedGeneration} and {@code status.typeChecking}
 * (its {@code expressionWarnings}, left out when there are none); the rest of its status is kept.
 */
public final class PolicyStatusController extends PassHook {

    private static final GroupVersionResource POLICIES =
            new GroupVersionResource("admissionregistration.k8s.io", "v1", "validatingadmissionpolicies");

    private final LocalClient client;
    private final Registry registry;
    private final PolicyTypeChecker checker;

    public PolicyStatusController(LocalClient client, Registry registry, PolicyTypeChecker checker,
                                  SharedInformers informers) {
        super(informers, List.of(POLICIES), null);
        this.client = client;
        this.registry = registry;
        this.checker = checker;
    }

    @Override
    public String name() {
        return "start-kapi-validatingadmissionpolicy-status-controller";
    }

    @Override
    public void syncAll() {
        for (ObjectNode policy : registry.list(POLICIES, "")) {
            long generation = ObjectMeta.of(policy).generation();
            if (policy.path("status").path("observedGeneration").asLong(0) < generation) {
                sync(policy, generation);
            }
        }
    }

    private void sync(ObjectNode policy, long generation) {
        List<PolicyTypeChecker.ExpressionWarning> warnings = checker.check(policy);
        ObjectNode updated = policy.deepCopy();
        ObjectNode status = updated.with("status");
        status.put("observedGeneration", generation);
        ObjectNode typeChecking = status.putObject("typeChecking");
        if (!warnings.isEmpty()) {
            ArrayNode list = typeChecking.putArray("expressionWarnings");
            warnings.forEach(w -> list.addObject().put("fieldRef", w.fieldRef()).put("warning", w.warning()));
        }
        try {
            client.resource(POLICIES).update(updated, "status");
        } catch (ApiException e) {
            if (e.code() != 409 && e.code() != 404) {
                throw e;
            }
        }
    }
}
