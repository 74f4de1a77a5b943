package io.kapi.admission;

import java.util.Set;

/**
 * The writes that admission configured through the API never sees, so that a webhook or policy that
 * refuses everything (or whose backend hangs) can still be changed or deleted, as kube-apiserver 1.34
 * exempts them:
 * <ul>
 *   <li>webhooks are not called for any admission configuration kind of {@code admissionregistration.k8s.io}
 *       (kube's {@code IsExemptAdmissionConfigurationResource}, by kind, so their subresources too);</li>
 *   <li>admission policies do not run for admission policies and their bindings (the policy plugins'
 *       {@code admissionResources}, by group and resource, every version). Policies do see webhook
 *       configurations, as in kube.</li>
 * </ul>
 */
public final class ConfigurationExemption {

    private static final String GROUP = "admissionregistration.k8s.io";
    private static final Set<String> WEBHOOK_EXEMPT_KINDS = Set.of("ValidatingWebhookConfiguration",
            "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
            "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding");
    private static final Set<String> POLICY_EXEMPT_RESOURCES = Set.of("validatingadmissionpolicies",
            "validatingadmissionpolicybindings", "mutatingadmissionpolicies", "mutatingadmissionpolicybindings");

    private ConfigurationExemption() {
    }

    /** Whether no admission webhook is called for {@code a}. */
    public static boolean fromWebhooks(Attributes a) {
        return a.target().kind().group().equals(GROUP) && WEBHOOK_EXEMPT_KINDS.contains(a.target().kind().kind());
    }

    /** Whether no ValidatingAdmissionPolicy or MutatingAdmissionPolicy runs for {@code a}. */
    public static boolean fromPolicies(Attributes a) {
        return a.target().resource().group().equals(GROUP)
                && POLICY_EXEMPT_RESOURCES.contains(a.target().resource().resource());
    }
}
