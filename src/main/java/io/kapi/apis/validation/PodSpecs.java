package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.validation.ObjectMetaValidator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's {@code ValidatePodSpec} and {@code ValidatePodTemplateSpec}, shared by pods and every pod template.
 * Fields kube-apiserver always defaults (restartPolicy, dnsPolicy, terminationGracePeriodSeconds,
 * imagePullPolicy, terminationMessagePolicy, port protocols) are checked only when set, so that validation
 * never depends on which defaulter ran.
 */
final class PodSpecs {

    static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    static final List<String> DNS_POLICIES = List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");
    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    private static final List<String> VOLUME_SOURCES = List.of("hostPath", "emptyDir", "gitRepo", "gcePersistentDisk",
            "awsElasticBlockStore", "secret", "nfs", "iscsi", "glusterfs", "flocker", "persistentVolumeClaim", "rbd",
            "quobyte", "downwardAPI", "fc", "azureFile", "cephfs", "vsphereVolume", "azureDisk",
            "photonPersistentDisk", "portworxVolume", "scaleIO", "configMap", "storageos", "projected", "csi",
            "ephemeral", "image");
    private static final String MAX_INT32_RANGE = "must be between 1 and 2147483647, inclusive";

    private PodSpecs() {
    }

    /** {@code ValidatePodTemplateSpec} at {@code path} (e.g. {@code spec.template}). */
    static void template(JsonNode template, String path, Errs e) {
        JsonNode meta = GoValues.at(template, "metadata");
        ObjectMetaValidator.validateLabels(GoValues.at(meta, "labels"), path + ".labels").forEach(e::add);
        annotations(GoValues.at(meta, "annotations"), path + ".annotations", e);
        JsonNode spec = GoValues.at(template, "spec");
        spec(spec, path + ".spec", false, e);
        if (!GoValues.at(spec, "ephemeralContainers").isEmpty()) {
            e.forbidden(path + ".spec.ephemeralContainers", "ephemeral containers not allowed in pod template");
        }
    }

    static void annotations(JsonNode annotations, String path, Errs e) {
        long size = 0;
        for (var en : annotations.properties()) {
            e.each(path, en.getKey(), Identifiers.qualifiedName(en.getKey().toLowerCase(java.util.Locale.ROOT)));
            size += en.getKey().length() + en.getValue().asText().length();
        }
        if (size > ObjectMetaValidator.ANNOTATIONS_MAX_BYTES) {
            e.add(new io.kapi.machinery.FieldError(io.kapi.machinery.FieldError.Type.TOO_LONG, path, null,
                    "may not be more than " + ObjectMetaValidator.ANNOTATIONS_MAX_BYTES + " bytes"));
        }
    }

    /** {@code ValidatePodSpec} at {@code path}; {@code isPod} adds the pod-only checks. */
    static void spec(JsonNode spec, String path, boolean isPod, Errs e) {
        Set<String> volumes = volumes(GoValues.at(spec, "volumes"), path + ".volumes", e);
        containers(spec, volumes, path, e);
        initContainers(spec, volumes, path, e);
        hostNetwork(spec, path, isPod, e);
        oneOf(spec, "restartPolicy", path + ".restartPolicy", RESTART_POLICIES, e);
        oneOf(spec, "dnsPolicy", path + ".dnsPolicy", DNS_POLICIES, e);
        ObjectMetaValidator.validateLabels(GoValues.at(spec, "nodeSelector"), path + ".nodeSelector").forEach(e::add);
        securityContext(GoValues.at(spec, "securityContext"), path + ".securityContext", e);
        dnsConfig(spec, path + ".dnsConfig", e);
        for (String name : List.of("serviceAccountName", "nodeName", "priorityClassName")) {
            String v = GoValues.text(spec, name);
            if (!v.isEmpty()) {
                e.each(path + "." + name, v, Identifiers.dns1123Subdomain(v));
            }
        }
        JsonNode deadline = spec.get("activeDeadlineSeconds");
        if (deadline != null && deadline.isNumber() && (deadline.asLong() < 1 || deadline.asLong() > Integer.MAX_VALUE)) {
            e.invalid(path + ".activeDeadlineSeconds", deadline.asText(), MAX_INT32_RANGE);
        }
        for (String name : List.of("hostname", "subdomain")) {
            String v = GoValues.text(spec, name);
            if (!v.isEmpty()) {
                e.each(path + "." + name, v, Identifiers.dns1123Label(v));
            }
        }
        Tolerations.validate(GoValues.at(spec, "tolerations"), path + ".tolerations", e);
        if (isPod) {
            for (String list : List.of("containers", "initContainers")) {
                List<JsonNode> cs = GoValues.items(spec.get(list));
                for (int i = 0; i < cs.size(); i++) {
                    String image = GoValues.text(cs.get(i), "image");
                    if (!image.equals(image.strip())) {
                        e.invalidString(path + "." + list + "[" + i + "].image", image,
                                "must not have leading or trailing whitespace");
                    }
                }
            }
        }
    }

    private static void oneOf(JsonNode parent, String name, String path, List<String> allowed, Errs e) {
        String v = GoValues.text(parent, name);
        if (!v.isEmpty() && !allowed.contains(v)) {
            e.notSupported(path, GoStrings.quote(v), allowed);
        }
    }

    /** {@code ValidateVolumes}: the names of the valid volumes (mounts may only refer to those). */
    private static Set<String> volumes(JsonNode list, String path, Errs e) {
        Set<String> names = new HashSet<>();
        List<JsonNode> vols = GoValues.items(list);
        for (int i = 0; i < vols.size(); i++) {
            JsonNode vol = vols.get(i);
            String p = path + "[" + i + "]";
            Errs own = new Errs();
            volumeSource(vol, p, own);
            String name = GoValues.text(vol, "name");
            if (name.isEmpty()) {
                own.required(p + ".name", "");
            } else {
                own.each(p + ".name", name, Identifiers.dns1123Label(name));
            }
            if (names.contains(name)) {
                own.duplicate(p + ".name", GoStrings.quote(name));
            }
            if (own.isEmpty()) {
                names.add(name);
            } else {
                own.list().forEach(e::add);
            }
        }
        return names;
    }

    private static void volumeSource(JsonNode vol, String path, Errs e) {
        int sources = 0;
        for (String source : VOLUME_SOURCES) {
            if (!GoValues.has(vol, source)) {
                continue;
            }
            if (sources > 0) {
                e.forbidden(path + "." + source, "may not specify more than 1 volume type");
                continue;
            }
            sources++;
            JsonNode s = vol.get(source);
            String p = path + "." + source;
            switch (source) {
                case "persistentVolumeClaim" -> requiredText(s, "claimName", p, e);
                case "secret" -> {
                    requiredText(s, "secretName", p, e);
                    fileMode(s, p, e);
                }
                case "configMap" -> {
                    requiredText(s, "name", p, e);
                    fileMode(s, p, e);
                }
                case "hostPath" -> requiredText(s, "path", p, e);
                case "nfs" -> {
                    requiredText(s, "server", p, e);
                    requiredText(s, "path", p, e);
                }
                default -> { }
            }
        }
        if (sources == 0) {
            e.required(path, "must specify a volume type");
        }
    }

    private static void requiredText(JsonNode s, String name, String path, Errs e) {
        if (GoValues.text(s, name).isEmpty()) {
            e.required(path + "." + name, "");
        }
    }

    private static void fileMode(JsonNode s, String path, Errs e) {
        JsonNode mode = s.get("defaultMode");
        if (mode != null && mode.isNumber() && (mode.asLong() < 0 || mode.asLong() > 0777)) {
            e.invalid(path + ".defaultMode", mode.asText(), "must be a number between 0 and 0777 (octal), both inclusive");
        }
    }

    private static void containers(JsonNode spec, Set<String> volumes, String path, Errs e) {
        String p = path + ".containers";
        List<JsonNode> cs = GoValues.items(spec.get("containers"));
        if (cs.isEmpty()) {
            e.required(p, "");
            return;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < cs.size(); i++) {
            JsonNode c = cs.get(i);
            String cp = p + "[" + i + "]";
            Containers.common(c, volumes, cp, e);
            String name = GoValues.text(c, "name");
            if (!names.add(name)) {
                e.duplicate(cp + ".name", GoStrings.quote(name));
            }
            Containers.lifecycleAndProbes(c, cp, e);
            if (GoValues.has(c, "restartPolicy")) {
                e.forbidden(cp + ".restartPolicy", "may not be set for non-init containers");
            }
        }
        Containers.hostPortConflicts(cs, p, e);
    }

    private static void initContainers(JsonNode spec, Set<String> volumes, String path, Errs e) {
        String p = path + ".initContainers";
        Set<String> names = new HashSet<>();
        GoValues.items(spec.get("containers")).forEach(c -> names.add(GoValues.text(c, "name")));
        List<JsonNode> cs = GoValues.items(spec.get("initContainers"));
        for (int i = 0; i < cs.size(); i++) {
            JsonNode c = cs.get(i);
            String cp = p + "[" + i + "]";
            Containers.common(c, volumes, cp, e);
            String restart = GoValues.text(c, "restartPolicy");
            if (GoValues.has(c, "restartPolicy") && !restart.equals("Always")) {
                e.notSupported(cp + ".restartPolicy", GoStrings.quote(restart), List.of("Always"));
            }
            String name = GoValues.text(c, "name");
            if (names.contains(name)) {
                e.duplicate(cp + ".name", GoStrings.quote(name));
            } else if (!name.isEmpty()) {
                names.add(name);
            }
            Containers.hostPortConflicts(List.of(c), p, e);
            if (restart.equals("Always")) {
                Containers.lifecycleAndProbes(c, cp, e);
            } else {
                for (String f : List.of("lifecycle", "livenessProbe", "readinessProbe", "startupProbe")) {
                    if (GoValues.has(c, f)) {
                        e.forbidden(cp + "." + f, "may not be set for init containers without restartPolicy=Always");
                    }
                }
            }
        }
    }

    private static void hostNetwork(JsonNode spec, String path, boolean isPod, Errs e) {
        if (!GoValues.at(spec, "hostNetwork").asBoolean(false)) {
            return;
        }
        List<JsonNode> cs = GoValues.items(spec.get("containers"));
        for (int i = 0; i < cs.size(); i++) {
            List<JsonNode> ports = GoValues.items(cs.get(i).get("ports"));
            for (int j = 0; j < ports.size(); j++) {
                long hp = GoValues.at(ports.get(j), "hostPort").asLong(0);
                long cp = GoValues.at(ports.get(j), "containerPort").asLong(0);
                if ((isPod || hp != 0) && hp != cp) {
                    e.invalid(path + ".containers[" + i + "].ports[" + j + "].hostPort", Long.toString(hp),
                            "must match `containerPort` when `hostNetwork` is true");
                }
            }
        }
    }

    private static void securityContext(JsonNode sc, String path, Errs e) {
        for (String f : List.of("runAsUser", "runAsGroup", "fsGroup")) {
            JsonNode v = sc.get(f);
            if (v != null && v.isNumber() && (v.asLong() < 0 || v.asLong() > Integer.MAX_VALUE)) {
                e.invalid(path + "." + f, v.asText(), "must be between 0 and 2147483647, inclusive");
            }
        }
    }

    private static void dnsConfig(JsonNode spec, String path, Errs e) {
        if (GoValues.text(spec, "dnsPolicy").equals("None")) {
            if (!GoValues.has(spec, "dnsConfig")) {
                e.required(path, "must provide `dnsConfig` when `dnsPolicy` is None");
                return;
            }
            if (GoValues.at(spec, "dnsConfig", "nameservers").isEmpty()) {
                e.required(path + ".nameservers", "must provide at least one DNS nameserver when `dnsPolicy` is None");
                return;
            }
        }
        List<JsonNode> servers = GoValues.items(GoValues.at(spec, "dnsConfig", "nameservers"));
        if (servers.size() > 3) {
            e.invalid(path + ".nameservers", Go.stringSlice(GoValues.at(spec, "dnsConfig", "nameservers")),
                    "must not have more than 3 nameservers");
        }
        for (int i = 0; i < servers.size(); i++) {
            Names.ip(path + ".nameservers[" + i + "]", servers.get(i).asText(), e);
        }
    }
}
