package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.ObjectMetaValidator;
import io.kapi.registry.KindValidator;
import java.util.List;

/**
 * ResourceClaims and ResourceClaimTemplates (resource.k8s.io/v1), as kube 1.34's
 * {@code ValidateResourceClaim}/{@code Update} and {@code ValidateResourceClaimTemplate}/{@code Update}:
 * the spec's devices on create ({@link DeviceRequests}); on update the spec is immutable
 * ({@code spec: Invalid value: ...: field is immutable}) and then validated again as stored. A template's
 * metadata may only carry labels and annotations.
 *
 * <p>The claim's status (allocation, reservedFor, device status) is not validated: the /status subresource
 * goes through the same update check, and the spec it keeps passes.
 */
public final class ResourceClaims {

    public static final KindValidator CLAIM = new Rules(
            (o, e) -> DeviceRequests.claim(GoValues.at(o, "spec", "devices"), "spec.devices", false, e),
            ResourceClaims::claimUpdate);
    public static final KindValidator TEMPLATE = new Rules((o, e) -> templateSpec(GoValues.at(o, "spec"), false, e),
            ResourceClaims::templateUpdate);

    /** The ObjectMeta fields (Go order) a template's metadata must leave unset. */
    private static final List<String> NOT_IN_TEMPLATE = List.of("name", "generateName", "namespace", "selfLink",
            "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
            "deletionGracePeriodSeconds", "ownerReferences", "finalizers", "managedFields");

    private ResourceClaims() {
    }

    private static void claimUpdate(ObjectNode claim, ObjectNode old, Errs e) {
        JsonNode spec = GoValues.at(claim, "spec");
        if (!GoValues.same(spec, GoValues.at(old, "spec"))) {
            e.invalid("spec", "resource.ResourceClaimSpec{...}", Errs.IMMUTABLE);
        }
        DeviceRequests.claim(GoValues.at(spec, "devices"), "spec.devices", true, e);
    }

    private static void templateUpdate(ObjectNode template, ObjectNode old, Errs e) {
        JsonNode spec = GoValues.at(template, "spec");
        if (!GoValues.same(spec, GoValues.at(old, "spec"))) {
            e.invalid("spec", "resource.ResourceClaimTemplateSpec{...}", Errs.IMMUTABLE);
        }
        templateSpec(spec, true, e);
    }

    /** {@code validateResourceClaimTemplateSpec}: template metadata, then the claim spec at {@code spec.spec}. */
    private static void templateSpec(JsonNode spec, boolean stored, Errs e) {
        JsonNode meta = GoValues.at(spec, "metadata");
        PodSpecs.annotations(GoValues.at(meta, "annotations"), "spec.metadata.annotations", e);
        ObjectMetaValidator.validateLabels(GoValues.at(meta, "labels"), "spec.metadata.labels").forEach(e::add);
        for (String field : NOT_IN_TEMPLATE) {
            if (!GoValues.isZero(meta.get(field)) && !GoValues.isBlank(meta.get(field))
                    && !GoValues.isEmpty(meta.get(field))) {
                e.forbidden("spec.metadata." + field, "cannot be set for a resource claim template");
            }
        }
        DeviceRequests.claim(GoValues.at(spec, "spec", "devices"), "spec.spec.devices", stored, e);
    }
}
