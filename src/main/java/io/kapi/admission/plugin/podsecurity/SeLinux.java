package io.kapi.admission.plugin.podsecurity;

import static io.kapi.admission.plugin.podsecurity.PodView.name;
import static io.kapi.admission.plugin.podsecurity.Violation.containers;
import static io.kapi.admission.plugin.podsecurity.Violation.joinQuote;
import static io.kapi.admission.plugin.podsecurity.Violation.plural;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Baseline: SELinux type only {@code container_t}, {@code container_init_t} or {@code container_kvm_t}; no user
 * or role. Worded as kube's check, which names a set user or role only next to a forbidden type.
 */
final class SeLinux {

    private final TreeSet<String> badTypes = new TreeSet<>();
    private boolean user;
    private boolean role;

    private SeLinux() {
    }

    static Optional<Violation> check(PodView p) {
        SeLinux s = new SeLinux();
        List<String> setters = new ArrayList<>();
        JsonNode podOptions = p.podSecurity().path("seLinuxOptions");
        if (podOptions.isObject() && !s.valid(podOptions)) {
            setters.add("pod");
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : p.containers()) {
            JsonNode options = c.path("securityContext").path("seLinuxOptions");
            if (options.isObject() && !s.valid(options)) {
                bad.add(name(c));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(containers(bad));
        }
        if (setters.isEmpty()) {
            return Optional.empty();
        }
        List<String> data = new ArrayList<>();
        if (!s.badTypes.isEmpty()) {
            data.add(plural("type", "types", s.badTypes.size()) + " " + joinQuote(s.badTypes));
            if (s.user) {
                data.add("user may not be set");
            }
            if (s.role) {
                data.add("role may not be set");
            }
        }
        return Optional.of(new Violation("seLinuxOptions", String.join(" and ", setters)
                + " set forbidden securityContext.seLinuxOptions: " + String.join("; ", data)));
    }

    private boolean valid(JsonNode options) {
        boolean valid = true;
        String type = options.path("type").asText("");
        if (!BaselineChecks.selinuxTypeAllowed(type)) {
            valid = false;
            badTypes.add(type);
        }
        if (!options.path("user").asText("").isEmpty()) {
            valid = false;
            user = true;
        }
        if (!options.path("role").asText("").isEmpty()) {
            valid = false;
            role = true;
        }
        return valid;
    }
}
