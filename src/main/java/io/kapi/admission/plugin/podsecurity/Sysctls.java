package io.kapi.admission.plugin.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Baseline: only the safe sysctls of the version (more were declared safe in 1.27, 1.29 and 1.32). */
final class Sysctls {

    private static final Set<String> SINCE_1_0 = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start");
    private static final Set<String> SINCE_1_27 = Set.of("net.ipv4.ip_local_reserved_ports");
    private static final Set<String> SINCE_1_29 = Set.of("net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
    private static final Set<String> SINCE_1_32 = Set.of("net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");

    private Sysctls() {
    }

    static boolean allowed(String name, int minor) {
        return SINCE_1_0.contains(name) || minor >= 27 && SINCE_1_27.contains(name)
                || minor >= 29 && SINCE_1_29.contains(name) || minor >= 32 && SINCE_1_32.contains(name);
    }

    static Optional<Violation> check(PodView p, int minor) {
        List<String> forbidden = new ArrayList<>();
        for (JsonNode sysctl : p.podSecurity().path("sysctls")) {
            String name = sysctl.path("name").asText("");
            if (!allowed(name, minor)) {
                forbidden.add(name);
            }
        }
        return forbidden.isEmpty() ? Optional.empty()
                : Optional.of(new Violation("forbidden sysctls", String.join(", ", forbidden)));
    }
}
