package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import java.util.ArrayList;
import java.util.List;

/** The ENDPOINTS cells of Endpoints and EndpointSlices: at most three addresses, then {@code + N more...}. */
final class Endpoints {

    private static final int MAX = 3;

    private Endpoints() {
    }

    /** {@code formatEndpoints}: {@code ip:port} per address and port of each subset; {@code <none>} without subsets. */
    static String format(JsonNode endpoints) {
        List<JsonNode> subsets = GoValues.items(endpoints, "subsets");
        if (subsets.isEmpty()) {
            return Labels.NONE;
        }
        List<String> list = new ArrayList<>();
        boolean more = false;
        int count = 0;
        for (JsonNode ss : subsets) {
            List<JsonNode> addresses = GoValues.items(ss, "addresses");
            List<JsonNode> ports = GoValues.items(ss, "ports");
            if (ports.isEmpty()) {
                count += addresses.size();
                for (JsonNode a : addresses) {
                    if (list.size() == MAX) {
                        more = true;
                        break;
                    }
                    list.add(GoValues.text(a, "ip"));
                }
                continue;
            }
            for (JsonNode port : ports) {
                count += addresses.size();
                for (JsonNode a : addresses) {
                    if (list.size() == MAX) {
                        more = true;
                        break;
                    }
                    list.add(joinHostPort(GoValues.text(a, "ip"), GoValues.integer(port, "port")));
                }
            }
        }
        String ret = String.join(",", list);
        return more ? ret + " + " + (count - MAX) + " more..." : ret;
    }

    /** Go's {@code net.JoinHostPort}: IPv6 addresses in brackets. */
    static String joinHostPort(String host, long port) {
        return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }

    /** {@code formatDiscoveryPorts}: port numbers, else names, else {@code *}; {@code <unset>} for none. */
    static String slicePorts(JsonNode slice) {
        List<String> list = new ArrayList<>();
        int count = 0;
        for (JsonNode p : GoValues.items(slice, "ports")) {
            if (list.size() < MAX) {
                if (GoValues.has(p, "port")) {
                    list.add(Long.toString(GoValues.integer(p, "port")));
                } else if (GoValues.has(p, "name")) {
                    list.add(GoValues.text(p, "name"));
                } else {
                    list.add("*");
                }
            }
            count++;
        }
        return withMore(list, count);
    }

    /** {@code formatDiscoveryEndpoints}: the addresses of all endpoints. */
    static String sliceEndpoints(JsonNode slice) {
        List<String> list = new ArrayList<>();
        int count = 0;
        for (JsonNode ep : GoValues.items(slice, "endpoints")) {
            for (JsonNode a : GoValues.items(ep, "addresses")) {
                if (list.size() < MAX) {
                    list.add(a.asText());
                }
                count++;
            }
        }
        return withMore(list, count);
    }

    /** {@code listWithMoreString}. */
    static String withMore(List<String> list, int count) {
        String ret = String.join(",", list);
        if (count > MAX) {
            return ret + " + " + (count - MAX) + " more...";
        }
        return ret.isEmpty() ? "<unset>" : ret;
    }
}
