package io.kapi.admission.plugin.podsecurity;

import static io.kapi.admission.plugin.podsecurity.PodView.name;
import static io.kapi.admission.plugin.podsecurity.Violation.containers;
import static io.kapi.admission.plugin.podsecurity.Violation.joinQuote;
import static io.kapi.admission.plugin.podsecurity.Violation.plural;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** Baseline since 1.34: probes and lifecycle handlers must not name a {@code host}. */
final class HostProbes {

    private HostProbes() {
    }

    static Optional<Violation> check(PodView p) {
        TreeSet<String> bad = new TreeSet<>();
        TreeSet<String> hosts = new TreeSet<>();
        for (JsonNode c : p.containers()) {
            List<JsonNode> handlers = List.of(c.path("livenessProbe"), c.path("readinessProbe"), c.path("startupProbe"),
                    c.path("lifecycle").path("postStart"), c.path("lifecycle").path("preStop"));
            for (JsonNode handler : handlers) {
                for (String kind : List.of("httpGet", "tcpSocket")) {
                    String host = handler.path(kind).path("host").asText("");
                    if (!host.isEmpty()) {
                        bad.add(name(c));
                        hosts.add(host);
                    }
                }
            }
        }
        if (bad.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Violation("probe or lifecycle host", containers(bad) + " "
                + plural("uses", "use", bad.size()) + " "
                + plural("probe or lifecycle host", "probe or lifecycle hosts", hosts.size()) + " " + joinQuote(hosts)));
    }
}
