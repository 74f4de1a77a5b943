package io.kapi.admission.plugin.podsecurity;

import static io.kapi.admission.plugin.podsecurity.PodView.isFalse;
import static io.kapi.admission.plugin.podsecurity.PodView.name;
import static io.kapi.admission.plugin.podsecurity.Violation.containers;
import static io.kapi.admission.plugin.podsecurity.Violation.joinQuote;
import static io.kapi.admission.plugin.podsecurity.Violation.plural;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The restricted controls of the Pod Security Standards, worded as kube's checks word them. */
final class RestrictedChecks {

    private static final Set<String> ALLOWED_VOLUMES = Set.of("configMap", "csi", "downwardAPI", "emptyDir",
            "ephemeral", "persistentVolumeClaim", "projected", "secret");
    private static final List<String> KNOWN_VOLUMES = List.of("hostPath", "gcePersistentDisk", "awsElasticBlockStore",
            "gitRepo", "nfs", "iscsi", "glusterfs", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "fc", "azureFile",
            "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "portworxVolume", "scaleIO", "storageos");

    static final List<Check> ALL = List.of(
            Check.restricted("allowPrivilegeEscalation", 8, Set.of(), RestrictedChecks::privilegeEscalation),
            Check.restricted("capabilities_restricted", 22, Set.of(BaselineChecks.CAPABILITIES),
                    RestrictedChecks::capabilities),
            Check.restricted("restrictedVolumes", 0, Set.of(BaselineChecks.HOST_PATH), (p, v) -> volumes(p)),
            Check.restricted("runAsNonRoot", 0, Set.of(), (p, v) -> runAsNonRoot(p)),
            Check.restricted("runAsUser", 23, Set.of(), (p, v) -> runAsUser(p)),
            Check.restricted("seccompProfile_restricted", 19, Set.of(BaselineChecks.SECCOMP), Seccomp::restricted));

    private RestrictedChecks() {
    }

    static Optional<Violation> privilegeEscalation(PodView p, int minor) {
        if (minor >= 25 && p.windows()) {
            return Optional.empty();
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : p.containers()) {
            if (!isFalse(c.path("securityContext"), "allowPrivilegeEscalation")) {
                bad.add(name(c));
            }
        }
        return bad.isEmpty() ? Optional.empty() : Optional.of(new Violation("allowPrivilegeEscalation != false",
                containers(bad) + " must set securityContext.allowPrivilegeEscalation=false"));
    }

    static Optional<Violation> capabilities(PodView p, int minor) {
        if (minor >= 25 && p.windows()) {
            return Optional.empty();
        }
        List<String> missingDropAll = new ArrayList<>();
        List<String> adding = new ArrayList<>();
        TreeSet<String> forbidden = new TreeSet<>();
        for (JsonNode c : p.containers()) {
            JsonNode caps = c.path("securityContext").path("capabilities");
            if (!caps.isObject()) {
                missingDropAll.add(name(c));
                continue;
            }
            boolean droppedAll = false;
            for (JsonNode d : caps.path("drop")) {
                droppedAll |= d.asText().equals("ALL");
            }
            if (!droppedAll) {
                missingDropAll.add(name(c));
            }
            boolean added = false;
            for (JsonNode a : caps.path("add")) {
                if (!a.asText().equals("NET_BIND_SERVICE")) {
                    added = true;
                    forbidden.add(a.asText());
                }
            }
            if (added) {
                adding.add(name(c));
            }
        }
        List<String> details = new ArrayList<>();
        if (!missingDropAll.isEmpty()) {
            details.add(containers(missingDropAll) + " must set securityContext.capabilities.drop=[\"ALL\"]");
        }
        if (!adding.isEmpty()) {
            details.add(containers(adding) + " must not include " + joinQuote(forbidden)
                    + " in securityContext.capabilities.add");
        }
        return details.isEmpty() ? Optional.empty()
                : Optional.of(new Violation("unrestricted capabilities", String.join("; ", details)));
    }

    static Optional<Violation> volumes(PodView p) {
        List<String> bad = new ArrayList<>();
        TreeSet<String> types = new TreeSet<>();
        for (JsonNode v : p.spec().path("volumes")) {
            String source = null;
            for (var e : v.properties()) {
                if (!e.getKey().equals("name") && !e.getValue().isNull()) {
                    source = source == null || ALLOWED_VOLUMES.contains(e.getKey()) ? e.getKey() : source;
                }
            }
            if (source != null && ALLOWED_VOLUMES.contains(source)) {
                continue;
            }
            bad.add(name(v));
            types.add(source != null && KNOWN_VOLUMES.contains(source) ? source : "unknown");
        }
        return bad.isEmpty() ? Optional.empty() : Optional.of(new Violation("restricted volume types",
                plural("volume", "volumes", bad.size()) + " " + joinQuote(bad) + " " + plural("uses", "use", bad.size())
                        + " " + plural("restricted volume type", "restricted volume types", types.size()) + " "
                        + joinQuote(types)));
    }

    static Optional<Violation> runAsNonRoot(PodView p) {
        List<String> setters = new ArrayList<>();
        JsonNode pod = p.podSecurity().get("runAsNonRoot");
        boolean podNonRoot = false;
        if (pod != null && pod.isBoolean()) {
            if (pod.asBoolean()) {
                podNonRoot = true;
            } else {
                setters.add("pod");
            }
        }
        List<String> explicit = new ArrayList<>();
        List<String> implicit = new ArrayList<>();
        for (JsonNode c : p.containers()) {
            JsonNode value = c.path("securityContext").get("runAsNonRoot");
            if (value != null && value.isBoolean()) {
                if (!value.asBoolean()) {
                    explicit.add(name(c));
                }
            } else if (!podNonRoot) {
                implicit.add(name(c));
            }
        }
        if (!explicit.isEmpty()) {
            setters.add(containers(explicit));
        }
        if (!setters.isEmpty()) {
            return Optional.of(new Violation("runAsNonRoot != true",
                    String.join(" and ", setters) + " must not set securityContext.runAsNonRoot=false"));
        }
        return implicit.isEmpty() ? Optional.empty() : Optional.of(new Violation("runAsNonRoot != true",
                "pod or " + containers(implicit) + " must set securityContext.runAsNonRoot=true"));
    }

    static Optional<Violation> runAsUser(PodView p) {
        List<String> setters = new ArrayList<>();
        if (isRoot(p.podSecurity())) {
            setters.add("pod");
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : p.containers()) {
            if (isRoot(c.path("securityContext"))) {
                bad.add(name(c));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(containers(bad));
        }
        return setters.isEmpty() ? Optional.empty()
                : Optional.of(new Violation("runAsUser=0", String.join(" and ", setters) + " must not set runAsUser=0"));
    }

    private static boolean isRoot(JsonNode securityContext) {
        JsonNode user = securityContext.get("runAsUser");
        return user != null && user.isIntegralNumber() && user.asLong() == 0;
    }
}
