package io.kapi.apis.conversion;

import io.kapi.apis.defaults.BuiltinDefaults;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;

/**
 * The conversions of the built-in resources served in more than one version by default, each to the
 * storage version kube-apiserver 1.34 keeps it in: HorizontalPodAutoscalers ({@code autoscaling/v1} and
 * {@code v2}, stored as {@code v2}) and Events (core {@code v1} and {@code events.k8s.io/v1}, stored as
 * core {@code v1}), and the off-by-default admissionregistration.k8s.io versions ({@link SameShapeConversion}).
 * Every other resource is served in one version and kept as served ({@link Converter#NONE}):
 * a few of those have another storage version in kube (CustomResourceDefinitions as {@code v1beta1},
 * resource.k8s.io as {@code v1beta2}), which only their discovery hash reflects, since no client can
 * read them in it.
 */
public final class BuiltinConversions {

    private static final Converter HPA_V1 = new HpaV1Conversion(
            BuiltinDefaults.forKind(new GroupVersionKind("autoscaling", "v2", "HorizontalPodAutoscaler")));
    private static final Converter HPA_V2 = new HpaV2Conversion();
    private static final Converter EVENTS_V1 = new EventsV1Conversion();
    private static final String ADMISSION = "admissionregistration.k8s.io/";
    private static final Converter POLICY_V1BETA1 = new SameShapeConversion(ADMISSION + "v1beta1", ADMISSION + "v1");
    private static final Converter MUTATING_V1ALPHA1 =
            new SameShapeConversion(ADMISSION + "v1alpha1", ADMISSION + "v1beta1");

    private BuiltinConversions() {
    }

    /** The converter of the served {@code resource} to its storage version, or {@link Converter#NONE}. */
    public static Converter forResource(ApiResource resource, ResourceFacts facts) {
        if (!facts.stored()) {
            return Converter.NONE;
        }
        return switch (resource.group() + "/" + resource.name() + "/" + resource.version()) {
            case "autoscaling/horizontalpodautoscalers/v1" -> HPA_V1;
            case "autoscaling/horizontalpodautoscalers/v2" -> HPA_V2;
            case "events.k8s.io/events/v1" -> EVENTS_V1;
            case "admissionregistration.k8s.io/validatingadmissionpolicies/v1beta1",
                 "admissionregistration.k8s.io/validatingadmissionpolicybindings/v1beta1" -> POLICY_V1BETA1;
            case "admissionregistration.k8s.io/mutatingadmissionpolicies/v1alpha1",
                 "admissionregistration.k8s.io/mutatingadmissionpolicybindings/v1alpha1" -> MUTATING_V1ALPHA1;
            default -> Converter.NONE;
        };
    }

    /** The kind the objects of {@code resource} are kept as: its storage version when it converts, else its own. */
    public static GroupVersionKind storedKind(ApiResource resource, ResourceFacts facts) {
        return forResource(resource, facts) == Converter.NONE ? resource.gvk() : facts.storageVersion();
    }
}
