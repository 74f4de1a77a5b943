package io.kapi.authz.node;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a pod bound to a node gives that node access to, read as kube's node graph does
 * ({@code AddPod}): its service account, the secrets and configmaps its spec names (volumes, env,
 * envFrom, image pull secrets, projected sources, volume plugins' secret references), its claims
 * (PVCs, generic ephemeral volumes' {@code <pod>-<volume>} claims) and resource claims. All are in the
 * pod's namespace. A mirror pod (annotation {@code kubernetes.io/config.mirror}) gives nothing but
 * itself: a node must not be able to create a pod that grants it access to other objects.
 *
 * @param nodeName "" for a pod not bound yet
 */
public record PodReferences(String nodeName, boolean mirror, String serviceAccount, Set<String> secrets,
                     Set<String> configMaps, Set<String> claims, Set<String> resourceClaims) {

    public static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
    /** Volume plugins whose {@code secretRef.name} names a secret. */
    private static final List<String> SECRET_REF_VOLUMES = List.of("cephfs", "cinder", "flexVolume", "rbd",
            "scaleIO", "iscsi", "storageos");

    /** What {@code pod} gives its node: nothing when it is not bound, only itself when it is a mirror pod. */
    static PodReferences of(JsonNode pod) {
        PodReferences all = named(pod);
        if (all.nodeName().isEmpty() || all.mirror()) {
            return new PodReferences(all.nodeName(), all.mirror(), "", Set.of(), Set.of(), Set.of(), Set.of());
        }
        return all;
    }

    /** Every object {@code pod}'s spec names, whether it is bound or a mirror pod or not. */
    public static PodReferences named(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        String node = spec.path("nodeName").asText("");
        boolean mirror = pod.path("metadata").path("annotations").has(MIRROR_ANNOTATION);
        Set<String> secrets = new LinkedHashSet<>();
        Set<String> configMaps = new LinkedHashSet<>();
        spec.path("imagePullSecrets").forEach(s -> add(secrets, s.path("name")));
        for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
            for (JsonNode c : spec.path(list)) {
                c.path("envFrom").forEach(e -> {
                    add(secrets, e.path("secretRef").path("name"));
                    add(configMaps, e.path("configMapRef").path("name"));
                });
                c.path("env").forEach(e -> {
                    add(secrets, e.path("valueFrom").path("secretKeyRef").path("name"));
                    add(configMaps, e.path("valueFrom").path("configMapKeyRef").path("name"));
                });
            }
        }
        Set<String> claims = new LinkedHashSet<>();
        String podName = pod.path("metadata").path("name").asText("");
        for (JsonNode v : spec.path("volumes")) {
            volume(v, secrets, configMaps);
            add(claims, v.path("persistentVolumeClaim").path("claimName"));
            if (v.has("ephemeral")) {
                claims.add(podName + "-" + v.path("name").asText(""));
            }
        }
        return new PodReferences(node, mirror, spec.path("serviceAccountName").asText(""), Set.copyOf(secrets),
                Set.copyOf(configMaps), Set.copyOf(claims), resourceClaims(pod));
    }

    private static void volume(JsonNode v, Set<String> secrets, Set<String> configMaps) {
        add(secrets, v.path("secret").path("secretName"));
        add(secrets, v.path("azureFile").path("secretName"));
        add(secrets, v.path("csi").path("nodePublishSecretRef").path("name"));
        for (String plugin : SECRET_REF_VOLUMES) {
            add(secrets, v.path(plugin).path("secretRef").path("name"));
        }
        add(configMaps, v.path("configMap").path("name"));
        for (JsonNode source : v.path("projected").path("sources")) {
            add(secrets, source.path("secret").path("name"));
            add(configMaps, source.path("configMap").path("name"));
        }
    }

    /**
     * kube's {@code resourceclaim.Name}: a claim named directly, or the one the status records for a
     * template; a template without a recorded claim gives no access yet.
     */
    private static Set<String> resourceClaims(JsonNode pod) {
        Set<String> names = new LinkedHashSet<>();
        JsonNode statuses = pod.path("status").path("resourceClaimStatuses");
        for (JsonNode c : pod.path("spec").path("resourceClaims")) {
            if (c.hasNonNull("resourceClaimName")) {
                add(names, c.path("resourceClaimName"));
            } else if (c.hasNonNull("resourceClaimTemplateName")) {
                for (JsonNode s : statuses) {
                    if (s.path("name").asText("").equals(c.path("name").asText(""))) {
                        add(names, s.path("resourceClaimName"));
                    }
                }
            }
        }
        add(names, pod.path("status").path("extendedResourceClaimStatus").path("resourceClaimName"));
        return Set.copyOf(names);
    }

    private static void add(Set<String> names, JsonNode name) {
        if (name.isTextual() && !name.asText().isEmpty()) {
            names.add(name.asText());
        }
    }
}
