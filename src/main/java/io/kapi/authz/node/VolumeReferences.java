package io.kapi.authz.node;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a PersistentVolume bound to a claim gives the nodes that can reach that claim, as kube's node
 * graph ({@code AddPV}, {@code VisitPVSecretNames}): the volume itself and the secrets its source
 * names that the kubelet needs (not the CSI controller's publish and expand secrets). A secret
 * reference without a namespace is in the claim's namespace. A volume without {@code claimRef} gives
 * nothing.
 *
 * @param claimNamespace "" when unbound
 * @param secrets {@code namespace/name} of each secret
 */
record VolumeReferences(String claimNamespace, String claimName, Set<String> secrets) {

    private static final List<String> SECRET_REF_SOURCES = List.of("cephfs", "cinder", "flexVolume", "rbd",
            "scaleIO", "iscsi", "storageos");
    private static final List<String> CSI_KUBELET_SECRETS = List.of("nodePublishSecretRef", "nodeStageSecretRef",
            "nodeExpandSecretRef");

    static final VolumeReferences UNBOUND = new VolumeReferences("", "", Set.of());

    static VolumeReferences of(JsonNode pv) {
        JsonNode spec = pv.path("spec");
        JsonNode claim = spec.path("claimRef");
        if (!claim.isObject()) {
            return UNBOUND;
        }
        String ns = claim.path("namespace").asText("");
        Set<String> secrets = new LinkedHashSet<>();
        JsonNode azure = spec.path("azureFile");
        if (azure.hasNonNull("secretName")) {
            add(secrets, azure.path("secretNamespace").asText(ns), azure.path("secretName"));
        }
        for (String source : SECRET_REF_SOURCES) {
            JsonNode ref = spec.path(source).path("secretRef");
            add(secrets, ref.path("namespace").asText(ns), ref.path("name"));
        }
        for (String field : CSI_KUBELET_SECRETS) {
            JsonNode ref = spec.path("csi").path(field);
            add(secrets, ref.path("namespace").asText(ns), ref.path("name"));
        }
        return new VolumeReferences(ns, claim.path("name").asText(""), Set.copyOf(secrets));
    }

    private static void add(Set<String> secrets, String namespace, JsonNode name) {
        if (name.isTextual() && !name.asText().isEmpty()) {
            secrets.add((namespace.isEmpty() ? "" : namespace) + "/" + name.asText());
        }
    }
}
