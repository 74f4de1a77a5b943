package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;

/**
 * VolumeAttachments, as kube 1.34's volumeattachment strategy: a create runs {@code ValidateVolumeAttachment}
 * and {@code ValidateVolumeAttachmentV1} (attacher a CSI driver name, a valid PV name); an update runs
 * {@code ValidateVolumeAttachment} and {@code ValidateVolumeAttachmentUpdate} (spec immutable). With
 * {@code MutableCSINodeAllocatableCount} off the status strategy drops {@code errorCode}, so it is unchecked.
 */
public final class VolumeAttachments {

    public static final KindValidator RULES = new Aggregated(new Rules(VolumeAttachments::create, VolumeAttachments::update));

    static final String ONE_SOURCE = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";
    private static final String INLINE = "may not be specified in the context of inline volumes";
    private static final int MAX_METADATA_SIZE = 256 * 1024;
    private static final int MAX_ERROR_MESSAGE = 1024;

    private VolumeAttachments() {
    }

    private static void create(ObjectNode va, Errs e) {
        attachment(va, e);
        JsonNode spec = GoValues.at(va, "spec");
        StorageKinds.csiDriverName(GoValues.text(spec, "attacher"), "spec.attacher", e);
        JsonNode pv = GoValues.at(spec, "source", "persistentVolumeName");
        if (!GoValues.isUnset(pv)) {
            e.each("spec.source.persistentVolumeName", pv.asText(), Identifiers.dns1123Subdomain(pv.asText()));
        }
    }

    private static void update(ObjectNode va, ObjectNode old, Errs e) {
        attachment(va, e);
        JsonNode spec = GoValues.at(va, "spec");
        if (!sameSpec(spec, GoValues.at(old, "spec"))) {
            e.invalid("spec", render(spec), Errs.IMMUTABLE);
        }
    }

    /** {@code ValidateVolumeAttachment}: attacher, source, nodeName, then the status. */
    private static void attachment(ObjectNode va, Errs e) {
        JsonNode spec = GoValues.at(va, "spec");
        if (GoValues.text(spec, "attacher").isEmpty()) {
            e.required("spec.attacher", "");
        }
        source(GoValues.at(spec, "source"), e);
        String node = GoValues.text(spec, "nodeName");
        e.each("spec.nodeName", node, Identifiers.dns1123Subdomain(node));
        JsonNode status = GoValues.at(va, "status");
        long metadata = 0;
        for (var en : GoValues.at(status, "attachmentMetadata").properties()) {
            metadata += StorageKinds.bytes(en.getKey()) + StorageKinds.bytes(en.getValue().asText());
        }
        if (metadata > MAX_METADATA_SIZE) {
            e.tooLong("status.attachmentMetadata", MAX_METADATA_SIZE);
        }
        volumeError(status, "attachError", e);
        volumeError(status, "detachError", e);
    }

    /** kube reports an over-long message with the metadata limit, not the 1024 bytes it checks. */
    private static void volumeError(JsonNode status, String field, Errs e) {
        if (StorageKinds.bytes(GoValues.text(status, field, "message")) > MAX_ERROR_MESSAGE) {
            e.tooLong("status." + field + ".message", MAX_METADATA_SIZE);
        }
    }

    /** {@code validateVolumeAttachmentSource}; an inline spec gets the inline-only PV spec checks and access modes. */
    private static void source(JsonNode source, Errs e) {
        boolean inline = !GoValues.isUnset(source.get("inlineVolumeSpec"));
        JsonNode pv = source.get("persistentVolumeName");
        if (!inline && GoValues.isUnset(pv)) {
            e.required("spec.source", ONE_SOURCE);
        } else if (inline && !GoValues.isUnset(pv)) {
            e.forbidden("spec.source", ONE_SOURCE);
        } else if (!inline) {
            if (pv.asText().isEmpty()) {
                e.required("spec.source.persistentVolumeName", "must specify non empty persistentVolumeName");
            }
        } else {
            inlineSpec(source.get("inlineVolumeSpec"), "spec.source.inlineVolumeSpec", e);
        }
    }

    private static void inlineSpec(JsonNode spec, String path, Errs e) {
        if (!GoValues.isUnset(spec.get("claimRef"))) {
            e.forbidden(path + ".claimRef", INLINE);
        }
        if (!GoValues.at(spec, "capacity").isEmpty()) {
            e.forbidden(path + ".capacity", INLINE);
        }
        if (GoValues.isUnset(spec.get("csi"))) {
            e.required(path + ".csi", "has to be specified in the context of inline volumes");
        }
        Storage.accessModes(spec, path + ".accessModes", false, e);
    }

    private static boolean sameSpec(JsonNode a, JsonNode b) {
        return GoValues.text(a, "attacher").equals(GoValues.text(b, "attacher"))
                && GoValues.text(a, "nodeName").equals(GoValues.text(b, "nodeName"))
                && GoValues.at(a, "source", "persistentVolumeName").equals(GoValues.at(b, "source", "persistentVolumeName"))
                && GoValues.same(GoValues.at(a, "source", "inlineVolumeSpec"), GoValues.at(b, "source", "inlineVolumeSpec"));
    }

    /** The spec as Go's {@code %#v} prints a {@code storage.VolumeAttachmentSpec} (pointers as placeholders). */
    private static String render(JsonNode spec) {
        JsonNode source = GoValues.at(spec, "source");
        String pv = GoValues.isUnset(source.get("persistentVolumeName")) ? "(*string)(nil)" : "(*string)(0xc000000000)";
        String inline = GoValues.isUnset(source.get("inlineVolumeSpec")) ? "(*core.PersistentVolumeSpec)(nil)"
                : "(*core.PersistentVolumeSpec)(0xc000000000)";
        return "storage.VolumeAttachmentSpec{Attacher:" + GoStrings.quote(GoValues.text(spec, "attacher"))
                + ", Source:storage.VolumeAttachmentSource{PersistentVolumeName:" + pv + ", InlineVolumeSpec:" + inline
                + "}, NodeName:" + GoStrings.quote(GoValues.text(spec, "nodeName")) + "}";
    }
}
