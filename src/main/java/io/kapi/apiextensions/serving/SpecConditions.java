package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Conditions;
import io.kapi.apiextensions.Crd;
import io.kapi.apiextensions.schema.StructuralCheck;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.apiextensions.validation.ApiApproval;
import io.kapi.machinery.FieldError;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The two conditions kube's nonStructuralSchema and apiApproval controllers compute from a CRD's spec:
 * {@code NonStructuralSchema} (True, reason {@code Violations}, the aggregated violations of
 * {@code spec.preserveUnknownFields} and every version's schema; removed once there are none — a v1 CRD
 * only has it when it came from v1beta1 days, as creates and updates to v1 must be structural) and, for
 * the Kubernetes project's own groups only, {@code KubernetesAPIApprovalPolicyConformant} from the
 * {@code api-approved.kubernetes.io} annotation.
 */
final class SpecConditions {

    static final String NON_STRUCTURAL = "NonStructuralSchema";
    static final String API_APPROVAL = "KubernetesAPIApprovalPolicyConformant";

    private SpecConditions() {
    }

    /** Sets (or removes) both conditions on {@code desired}, the CRD object whose status is being built. */
    static void apply(ObjectNode desired, Crd crd, Instant now) {
        List<FieldError> violations = violations(crd);
        if (violations.isEmpty()) {
            Conditions.remove(desired, NON_STRUCTURAL);
        } else {
            Conditions.set(desired, NON_STRUCTURAL, "True", "Violations", aggregate(violations), now);
        }
        if (ApiApproval.protectedGroup(crd.group())) {
            ApiApproval.Result approval = ApiApproval.state(ApiApproval.annotation(crd));
            Conditions.set(desired, API_APPROVAL, approval.state().status, approval.state().reason, approval.message(), now);
        }
    }

    /** kube's violations: {@code preserveUnknownFields} true, and each version schema's structural errors. */
    static List<FieldError> violations(Crd crd) {
        List<FieldError> out = new ArrayList<>();
        if (crd.preserveUnknownFields()) {
            out.add(FieldError.invalid("spec.preserveUnknownFields", "true", "must be false"));
        }
        for (Crd.Version v : crd.versions()) {
            if (v.schema() != null) {
                out.addAll(StructuralCheck.check("spec.versions[" + v.index() + "].schema.openAPIV3Schema",
                        StructuralSchema.of(v.schema())));
            }
        }
        return out;
    }

    /** {@code field.ErrorList.ToAggregate().Error()}: one as is, several (duplicates dropped) in brackets. */
    private static String aggregate(List<FieldError> errors) {
        Set<String> unique = new LinkedHashSet<>();
        errors.forEach(e -> unique.add(e.toString()));
        return unique.size() == 1 ? unique.iterator().next() : "[" + String.join(", ", unique) + "]";
    }
}
