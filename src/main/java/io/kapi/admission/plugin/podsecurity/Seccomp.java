package io.kapi.admission.plugin.podsecurity;

import static io.kapi.admission.plugin.podsecurity.PodView.name;
import static io.kapi.admission.plugin.podsecurity.Violation.containers;
import static io.kapi.admission.plugin.podsecurity.Violation.joinQuote;
import static io.kapi.admission.plugin.podsecurity.Violation.plural;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The seccomp controls: baseline forbids an explicit profile other than RuntimeDefault or Localhost (before
 * 1.19, the alpha annotations); restricted (1.19+) also requires one on the pod or every container.
 */
final class Seccomp {

    private static final String POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
    private static final String CONTAINER_ANNOTATION = "container.seccomp.security.alpha.kubernetes.io/";

    private Seccomp() {
    }

    private static boolean valid(String type) {
        return type.equals("RuntimeDefault") || type.equals("Localhost");
    }

    private static boolean validAnnotation(String value) {
        return value.equals("runtime/default") || value.equals("docker/default") || value.startsWith("localhost/");
    }

    static Optional<Violation> baseline(PodView p, int minor) {
        return minor < 19 ? annotations(p) : fields(p, false);
    }

    static Optional<Violation> restricted(PodView p, int minor) {
        return minor >= 25 && p.windows() ? Optional.empty() : fields(p, true);
    }

    private static Optional<Violation> annotations(PodView p) {
        TreeSet<String> forbidden = new TreeSet<>();
        String pod = p.annotation(POD_ANNOTATION);
        if (pod != null && !validAnnotation(pod)) {
            forbidden.add(POD_ANNOTATION + "=" + GoStrings.quote(pod));
        }
        for (JsonNode c : p.containers()) {
            String key = CONTAINER_ANNOTATION + name(c);
            String value = p.annotation(key);
            if (value != null && !validAnnotation(value)) {
                forbidden.add(key + "=" + GoStrings.quote(value));
            }
        }
        return forbidden.isEmpty() ? Optional.empty() : Optional.of(new Violation("seccompProfile",
                "forbidden " + plural("annotation", "annotations", forbidden.size()) + " " + String.join(", ", forbidden)));
    }

    private static Optional<Violation> fields(PodView p, boolean required) {
        List<String> setters = new ArrayList<>();
        TreeSet<String> badValues = new TreeSet<>();
        boolean podSet = false;
        JsonNode podProfile = p.podSecurity().path("seccompProfile");
        if (podProfile.isObject()) {
            String type = podProfile.path("type").asText("");
            if (valid(type)) {
                podSet = true;
            } else {
                setters.add("pod");
                badValues.add(type);
            }
        }
        List<String> explicit = new ArrayList<>();
        List<String> implicit = new ArrayList<>();
        for (JsonNode c : p.containers()) {
            JsonNode profile = c.path("securityContext").path("seccompProfile");
            if (profile.isObject()) {
                String type = profile.path("type").asText("");
                if (!valid(type)) {
                    explicit.add(name(c));
                    badValues.add(type);
                }
            } else if (!podSet) {
                implicit.add(name(c));
            }
        }
        if (!explicit.isEmpty()) {
            setters.add(containers(explicit));
        }
        if (!setters.isEmpty()) {
            return Optional.of(new Violation("seccompProfile", String.join(" and ", setters)
                    + " must not set securityContext.seccompProfile.type to " + joinQuote(badValues)));
        }
        if (required && !implicit.isEmpty()) {
            return Optional.of(new Violation("seccompProfile", "pod or " + containers(implicit)
                    + " must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\""));
        }
        return Optional.empty();
    }
}
