package io.kapi.admission.plugin.podsecurity;

import static io.kapi.admission.plugin.podsecurity.PodView.has;
import static io.kapi.admission.plugin.podsecurity.PodView.isTrue;
import static io.kapi.admission.plugin.podsecurity.PodView.name;
import static io.kapi.admission.plugin.podsecurity.Violation.containers;
import static io.kapi.admission.plugin.podsecurity.Violation.joinQuote;
import static io.kapi.admission.plugin.podsecurity.Violation.plural;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The baseline controls of the Pod Security Standards, worded as kube's checks word them. */
final class BaselineChecks {

    static final String CAPABILITIES = "capabilities_baseline";
    static final String HOST_PATH = "hostPathVolumes";
    static final String SECCOMP = "seccompProfile_baseline";

    private static final Set<String> DEFAULT_CAPABILITIES = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER",
            "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");
    private static final Set<String> SELINUX_TYPES = Set.of("", "container_t", "container_init_t", "container_kvm_t");
    private static final String APPARMOR_PREFIX = "container.apparmor.security.beta.kubernetes.io/";

    static final List<Check> ALL = List.of(
            Check.baseline("appArmorProfile", (p, v) -> appArmor(p)),
            Check.baseline(CAPABILITIES, (p, v) -> capabilities(p)),
            Check.baseline("hostNamespaces", (p, v) -> hostNamespaces(p)),
            Check.baseline(HOST_PATH, (p, v) -> hostPath(p)),
            Check.baseline("hostPorts", (p, v) -> hostPorts(p)),
            Check.baseline("hostProbesAndHostLifecycle", 34, (p, v) -> HostProbes.check(p)),
            Check.baseline("privileged", (p, v) -> privileged(p)),
            Check.baseline("procMount", (p, v) -> procMount(p)),
            Check.baseline("seLinuxOptions", (p, v) -> SeLinux.check(p)),
            Check.baseline(SECCOMP, Seccomp::baseline),
            Check.baseline("sysctls", Sysctls::check),
            Check.baseline("windowsHostProcess", (p, v) -> windowsHostProcess(p)));

    private BaselineChecks() {
    }

    private static boolean allowedAppArmorType(String type) {
        return type.equals("RuntimeDefault") || type.equals("Localhost");
    }

    static Optional<Violation> appArmor(PodView p) {
        List<String> setters = new ArrayList<>();
        TreeSet<String> badValues = new TreeSet<>();
        JsonNode podProfile = p.podSecurity().path("appArmorProfile");
        if (podProfile.isObject() && !allowedAppArmorType(podProfile.path("type").asText(""))) {
            setters.add("pod");
            badValues.add(podProfile.path("type").asText(""));
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : p.containers()) {
            JsonNode profile = c.path("securityContext").path("appArmorProfile");
            if (profile.isObject() && !allowedAppArmorType(profile.path("type").asText(""))) {
                bad.add(name(c));
                badValues.add(profile.path("type").asText(""));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(containers(bad));
        }
        TreeSet<String> annotations = new TreeSet<>();
        p.metadata().path("annotations").properties().forEach(e -> {
            String value = e.getValue().asText("");
            if (e.getKey().startsWith(APPARMOR_PREFIX) && !value.isEmpty() && !value.equals("runtime/default")
                    && !value.startsWith("localhost/")) {
                annotations.add(e.getKey() + "=" + GoStrings.quote(value));
            }
        });
        List<String> values = new ArrayList<>(badValues);
        if (!annotations.isEmpty()) {
            values.addAll(annotations);
            setters.add(plural("annotation", "annotations", annotations.size()));
        }
        if (setters.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Violation(plural("forbidden AppArmor profile", "forbidden AppArmor profiles", values.size()),
                String.join(" and ", setters) + " must not set AppArmor profile type to " + joinQuote(values)));
    }

    static Optional<Violation> capabilities(PodView p) {
        List<String> bad = new ArrayList<>();
        TreeSet<String> caps = new TreeSet<>();
        for (JsonNode c : p.containers()) {
            boolean valid = true;
            for (JsonNode cap : c.path("securityContext").path("capabilities").path("add")) {
                if (!DEFAULT_CAPABILITIES.contains(cap.asText())) {
                    valid = false;
                    caps.add(cap.asText());
                }
            }
            if (!valid) {
                bad.add(name(c));
            }
        }
        return bad.isEmpty() ? Optional.empty() : Optional.of(new Violation("non-default capabilities",
                containers(bad) + " must not include " + joinQuote(caps) + " in securityContext.capabilities.add"));
    }

    static Optional<Violation> hostNamespaces(PodView p) {
        List<String> set = new ArrayList<>();
        for (String field : List.of("hostNetwork", "hostPID", "hostIPC")) {
            if (isTrue(p.spec(), field)) {
                set.add(field + "=true");
            }
        }
        return set.isEmpty() ? Optional.empty() : Optional.of(new Violation("host namespaces", String.join(", ", set)));
    }

    static Optional<Violation> hostPath(PodView p) {
        List<String> volumes = new ArrayList<>();
        for (JsonNode v : p.spec().path("volumes")) {
            if (has(v, "hostPath")) {
                volumes.add(name(v));
            }
        }
        return volumes.isEmpty() ? Optional.empty() : Optional.of(new Violation("hostPath volumes",
                plural("volume", "volumes", volumes.size()) + " " + joinQuote(volumes)));
    }

    static Optional<Violation> hostPorts(PodView p) {
        List<String> bad = new ArrayList<>();
        TreeSet<String> ports = new TreeSet<>();
        for (JsonNode c : p.containers()) {
            boolean valid = true;
            for (JsonNode port : c.path("ports")) {
                long hostPort = port.path("hostPort").asLong(0);
                if (hostPort != 0) {
                    valid = false;
                    ports.add(Long.toString(hostPort));
                }
            }
            if (!valid) {
                bad.add(name(c));
            }
        }
        return bad.isEmpty() ? Optional.empty() : Optional.of(new Violation("hostPort", containers(bad) + " "
                + plural("uses", "use", bad.size()) + " " + plural("hostPort", "hostPorts", ports.size()) + " "
                + String.join(", ", ports)));
    }

    static Optional<Violation> privileged(PodView p) {
        List<String> bad = new ArrayList<>();
        for (JsonNode c : p.containers()) {
            if (isTrue(c.path("securityContext"), "privileged")) {
                bad.add(name(c));
            }
        }
        return bad.isEmpty() ? Optional.empty() : Optional.of(new Violation("privileged",
                containers(bad) + " must not set securityContext.privileged=true"));
    }

    static Optional<Violation> procMount(PodView p) {
        List<String> bad = new ArrayList<>();
        TreeSet<String> types = new TreeSet<>();
        for (JsonNode c : p.containers()) {
            JsonNode mount = c.path("securityContext").get("procMount");
            if (mount != null && !mount.isNull() && !mount.asText().equals("Default")) {
                bad.add(name(c));
                types.add(mount.asText());
            }
        }
        return bad.isEmpty() ? Optional.empty() : Optional.of(new Violation("procMount",
                containers(bad) + " must not set securityContext.procMount to " + joinQuote(types)));
    }

    static Optional<Violation> windowsHostProcess(PodView p) {
        List<String> setters = new ArrayList<>();
        if (isTrue(p.podSecurity().path("windowsOptions"), "hostProcess")) {
            setters.add("pod");
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : p.containers()) {
            if (isTrue(c.path("securityContext").path("windowsOptions"), "hostProcess")) {
                bad.add(name(c));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(containers(bad));
        }
        return setters.isEmpty() ? Optional.empty() : Optional.of(new Violation("hostProcess",
                String.join(" and ", setters) + " must not set securityContext.windowsOptions.hostProcess=true"));
    }

    static boolean selinuxTypeAllowed(String type) {
        return SELINUX_TYPES.contains(type);
    }
}
