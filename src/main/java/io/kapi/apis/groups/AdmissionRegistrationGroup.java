package io.kapi.apis.groups;

import io.kapi.apis.conversion.SameShapeConversion;
import io.kapi.apis.defaults.PolicyDefaults;
import io.kapi.apis.validation.AdmissionPolicies;
import io.kapi.apis.validation.MutatingPolicies;
import io.kapi.apis.validation.StatusPolicy;
import io.kapi.endpoint.table.ControlPlanePrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/**
 * The kinds of {@code admissionregistration.k8s.io}: webhook configurations and admission policies. The
 * off-by-default {@code v1beta1} ValidatingAdmissionPolicies are stored as {@code v1}, the {@code v1alpha1}
 * MutatingAdmissionPolicies as {@code v1beta1}, both of the same shape.
 */
final class AdmissionRegistrationGroup {

    private static final GroupVersion V1 = new GroupVersion("admissionregistration.k8s.io", "v1");
    private static final GroupVersion V1BETA1 = new GroupVersion("admissionregistration.k8s.io", "v1beta1");
    private static final GroupVersion V1ALPHA1 = new GroupVersion("admissionregistration.k8s.io", "v1alpha1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "MutatingWebhookConfiguration")
                    .defaults(o -> PolicyDefaults.webhookConfiguration(o, true))
                    .validation(AdmissionPolicies.WEBHOOKS)
                    .printer(ControlPlanePrinters::webhookConfigurations),
            BuiltinKind.of(V1, "ValidatingAdmissionPolicy")
                    .defaults(PolicyDefaults::validatingAdmissionPolicy)
                    .validation(AdmissionPolicies.POLICY)
                    .status(StatusPolicy.EMPTY)
                    .printer(ControlPlanePrinters::validatingAdmissionPolicies),
            BuiltinKind.of(V1, "ValidatingAdmissionPolicyBinding")
                    .defaults(PolicyDefaults::validatingAdmissionPolicyBinding)
                    .validation(AdmissionPolicies.BINDING)
                    .printer(ControlPlanePrinters::policyBindings),
            BuiltinKind.of(V1, "ValidatingWebhookConfiguration")
                    .defaults(o -> PolicyDefaults.webhookConfiguration(o, false))
                    .validation(AdmissionPolicies.WEBHOOKS)
                    .printer(ControlPlanePrinters::webhookConfigurations),
            BuiltinKind.of(V1BETA1, "MutatingAdmissionPolicy")
                    .defaults(PolicyDefaults::validatingAdmissionPolicy)
                    .validation(MutatingPolicies.POLICY)
                    .printer(ControlPlanePrinters::mutatingAdmissionPolicies),
            BuiltinKind.of(V1BETA1, "MutatingAdmissionPolicyBinding")
                    .defaults(PolicyDefaults::validatingAdmissionPolicyBinding)
                    .validation(MutatingPolicies.BINDING)
                    .printer(ControlPlanePrinters::policyBindings),
            BuiltinKind.of(V1BETA1, "ValidatingAdmissionPolicy")
                    .defaults(PolicyDefaults::validatingAdmissionPolicy)
                    .validation(AdmissionPolicies.POLICY)
                    .status(StatusPolicy.EMPTY)
                    .conversion(sameShape(V1BETA1, V1))
                    .printer(ControlPlanePrinters::validatingAdmissionPolicies),
            BuiltinKind.of(V1BETA1, "ValidatingAdmissionPolicyBinding")
                    .defaults(PolicyDefaults::validatingAdmissionPolicyBinding)
                    .validation(AdmissionPolicies.BINDING)
                    .conversion(sameShape(V1BETA1, V1))
                    .printer(ControlPlanePrinters::policyBindings),
            BuiltinKind.of(V1ALPHA1, "MutatingAdmissionPolicy")
                    .defaults(PolicyDefaults::validatingAdmissionPolicy)
                    .validation(MutatingPolicies.POLICY)
                    .conversion(sameShape(V1ALPHA1, V1BETA1))
                    .printer(ControlPlanePrinters::mutatingAdmissionPolicies),
            BuiltinKind.of(V1ALPHA1, "MutatingAdmissionPolicyBinding")
                    .defaults(PolicyDefaults::validatingAdmissionPolicyBinding)
                    .validation(MutatingPolicies.BINDING)
                    .conversion(sameShape(V1ALPHA1, V1BETA1))
                    .printer(ControlPlanePrinters::policyBindings));

    private AdmissionRegistrationGroup() {
    }

    private static SameShapeConversion sameShape(GroupVersion served, GroupVersion stored) {
        return new SameShapeConversion(served.apiVersion(), stored.apiVersion());
    }
}
