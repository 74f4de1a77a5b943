package io.kapi.apiextensions.validation;

import io.kapi.apiextensions.Crd;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

/**
 * The API approval of CRDs in the groups the Kubernetes project owns ({@code k8s.io},
 * {@code kubernetes.io} and their subdomains): such a CRD carries the annotation
 * {@code api-approved.kubernetes.io}, an approval URL or a reason starting with "unapproved". Used by
 * CRD validation and by the controller that sets {@code KubernetesAPIApprovalPolicyConformant}.
 */
public final class ApiApproval {

    public static final String ANNOTATION = "api-approved.kubernetes.io";

    /** kube's {@code APIApprovalState}, with the condition status and reason the apiApproval controller sets. */
    public enum State {
        APPROVED("True", "ApprovedAnnotation"),
        BYPASSED("False", "UnapprovedAnnotation"),
        MISSING("False", "MissingAnnotation"),
        INVALID("False", "InvalidAnnotation");

        public final String status;
        public final String reason;

        State(String status, String reason) {
            this.status = status;
            this.reason = reason;
        }
    }

    /** A state and kube's words for it. */
    public record Result(State state, String message) {
    }

    private ApiApproval() {
    }

    /** Whether {@code group} is one of the Kubernetes project's. */
    public static boolean protectedGroup(String group) {
        return group.equals("k8s.io") || group.endsWith(".k8s.io") || group.equals("kubernetes.io")
                || group.endsWith(".kubernetes.io");
    }

    /** kube's {@code GetAPIApprovalState} of an annotation value ("" when absent). */
    public static Result state(String annotation) {
        String quoted = GoStrings.quote(ANNOTATION);
        if (annotation.isEmpty()) {
            return new Result(State.MISSING, "protected groups must have approval annotation " + quoted
                    + ", see https://github.com/kubernetes/enhancements/pull/1111");
        }
        if (annotation.startsWith("unapproved")) {
            return new Result(State.BYPASSED, "not approved: " + GoStrings.quote(annotation));
        }
        try {
            URI u = new URI(annotation);
            if (u.getScheme() != null && u.getRawAuthority() != null && !u.getRawAuthority().isEmpty()) {
                return new Result(State.APPROVED, "approved in " + annotation);
            }
        } catch (URISyntaxException e) {
            // not a URL: invalid below
        }
        return new Result(State.INVALID, "protected groups must have approval annotation " + quoted
                + " with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111");
    }

    /** The CRD's {@code api-approved.kubernetes.io} annotation, "" when absent. */
    public static String annotation(Crd crd) {
        return crd.object().path("metadata").path("annotations").path(ANNOTATION).asText("");
    }

    /** kube's {@code validateAPIApproval}: an unchanged state is never refused. */
    static void validate(Crd crd, Crd old, List<FieldError> errors) {
        if (!protectedGroup(crd.group())) {
            return;
        }
        Result now = state(annotation(crd));
        if (old != null && state(annotation(old)).state() == now.state()) {
            return;
        }
        String path = "metadata.annotations[" + ANNOTATION + "]";
        switch (now.state()) {
            case MISSING -> errors.add(FieldError.required(path, now.message()));
            case INVALID -> errors.add(FieldError.invalid(path, GoStrings.quote(annotation(crd)), now.message()));
            case APPROVED, BYPASSED -> { }
        }
    }
}
