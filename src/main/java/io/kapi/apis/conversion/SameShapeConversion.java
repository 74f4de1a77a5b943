package io.kapi.apis.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.conversion.Converter;

/**
 * A version whose Go types have the same fields as its storage version's (admissionregistration.k8s.io's
 * {@code v1beta1} ValidatingAdmissionPolicies, stored as {@code v1}; its {@code v1alpha1}
 * MutatingAdmissionPolicies, stored as {@code v1beta1}): kube's generated conversion copies field by
 * field, so only {@code apiVersion} changes. Fields the target version's schema lacks would be dropped by
 * kube's decoding; the versions converted here have none.
 */
public record SameShapeConversion(String servedApiVersion, String storedApiVersion) implements Converter {

    @Override
    public ObjectNode toStorage(ObjectNode served) {
        return withApiVersion(served, storedApiVersion);
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        return withApiVersion(stored, servedApiVersion);
    }

    private static ObjectNode withApiVersion(ObjectNode object, String apiVersion) {
        ObjectNode copy = object.deepCopy();
        copy.put("apiVersion", apiVersion);
        return copy;
    }
}
