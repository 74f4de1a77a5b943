package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the endpointslice mirroring controller wants from one Endpoints: its subsets repacked as kube's
 * {@code RepackSubsets} does (addresses grouped by the exact ports they serve, a port's ready address winning
 * over the same address not ready, sorted by IP), then each subset's first {@code maxPerSubset} addresses, ready
 * ones first, as EndpointSlice endpoints grouped by port list and address family.
 */
final class MirroredSlices {

    private MirroredSlices() {
    }

    /** The endpoints of one port list and address family, by IP in order. */
    record Group(String key, ArrayNode ports, String addressType, Map<String, ObjectNode> endpoints) {
    }

    /** Every group, and how many addresses were invalid or skipped in all (invalid ones included). */
    record Desired(Map<String, Group> groups, int invalid, int skipped) {
    }

    static String key(JsonNode ports, String addressType) {
        List<String> each = new ArrayList<>();
        ports.forEach(p -> each.add(p.path("name").asText("") + "/" + p.path("protocol").asText("") + "/"
                + p.path("port").asText("") + "/" + p.path("appProtocol").asText("")));
        each.sort(null);
        return addressType + " " + each;
    }

    static Desired desired(JsonNode subsets, int maxPerSubset) {
        Map<String, Group> groups = new LinkedHashMap<>();
        int invalid = 0;
        int skipped = 0;
        for (ObjectNode subset : repack(subsets)) {
            ArrayNode ports = Json.NODES.arrayNode();
            subset.path("ports").forEach(p -> ports.add(slicePort(p)));
            int total = subset.path("addresses").size() + subset.path("notReadyAddresses").size();
            int added = 0;
            for (String field : new String[] {"addresses", "notReadyAddresses"}) {
                for (JsonNode address : subset.path(field)) {
                    if (added >= maxPerSubset) {
                        break;
                    }
                    String type = addressType(address.path("ip").asText(""));
                    if (type == null) {
                        invalid++;
                        continue;
                    }
                    Group g = groups.computeIfAbsent(key(ports, type),
                            k -> new Group(k, ports, type, new LinkedHashMap<>()));
                    g.endpoints().putIfAbsent(address.path("ip").asText(),
                            endpoint(address, field.equals("addresses")));
                    added++;
                }
            }
            skipped += total - added;
        }
        return new Desired(groups, invalid, skipped);
    }

    /** {@code addressToEndpoint}: the IP, ready or not, hostname, targetRef and nodeName as given. */
    private static ObjectNode endpoint(JsonNode address, boolean ready) {
        ObjectNode e = Json.object();
        e.putArray("addresses").add(address.path("ip").asText());
        e.putObject("conditions").put("ready", ready);
        if (!address.path("hostname").asText("").isEmpty()) {
            e.put("hostname", address.get("hostname").asText());
        }
        if (address.hasNonNull("targetRef")) {
            e.set("targetRef", address.get("targetRef").deepCopy());
        }
        if (address.hasNonNull("nodeName")) {
            e.put("nodeName", address.get("nodeName").asText());
        }
        return e;
    }

    /** {@code epPortsToEpsPorts}: name (even empty), protocol, port, appProtocol. */
    private static ObjectNode slicePort(JsonNode port) {
        ObjectNode p = Json.object();
        p.put("name", port.path("name").asText(""));
        p.put("protocol", port.path("protocol").asText("TCP"));
        p.put("port", port.path("port").asInt());
        if (port.hasNonNull("appProtocol")) {
            p.put("appProtocol", port.get("appProtocol").asText());
        }
        return p;
    }

    /** IPv4 or IPv6, or null for an address that is not an IP. */
    static String addressType(String ip) {
        try {
            Inet4Address.ofLiteral(ip);
            return "IPv4";
        } catch (IllegalArgumentException e) {
            try {
                Inet6Address.ofLiteral(ip);
                return "IPv6";
            } catch (IllegalArgumentException e2) {
                return null;
            }
        }
    }

    /** {@code RepackSubsets}. */
    static List<ObjectNode> repack(JsonNode subsets) {
        Map<String, JsonNode> allAddresses = new LinkedHashMap<>();
        Map<String, JsonNode> ports = new LinkedHashMap<>();
        Map<String, Map<String, Boolean>> readyByPort = new LinkedHashMap<>();
        for (JsonNode subset : subsets) {
            List<JsonNode> subsetPorts = new ArrayList<>();
            subset.path("ports").forEach(subsetPorts::add);
            if (subsetPorts.isEmpty()) {
                subsetPorts.add(null); // kube's sentinel: addresses without ports are kept
            }
            for (JsonNode port : subsetPorts) {
                String portKey = port == null ? "" : port.toString();
                ports.putIfAbsent(portKey, port);
                Map<String, Boolean> ready = readyByPort.computeIfAbsent(portKey, k -> new LinkedHashMap<>());
                for (String field : new String[] {"addresses", "notReadyAddresses"}) {
                    for (JsonNode address : subset.path(field)) {
                        String key = address.path("ip").asText() + "/" + address.path("targetRef").path("uid").asText();
                        allAddresses.putIfAbsent(key, address);
                        ready.merge(key, field.equals("addresses"), Boolean::logicalOr);
                    }
                }
            }
        }
        Map<String, Map<String, Boolean>> byHash = new LinkedHashMap<>();
        Map<String, ArrayNode> portsByHash = new LinkedHashMap<>();
        readyByPort.forEach((portKey, ready) -> {
            String hash = new TreeMap<>(ready).toString();
            byHash.put(hash, ready);
            ArrayNode list = portsByHash.computeIfAbsent(hash, h -> Json.NODES.arrayNode());
            if (ports.get(portKey) != null) {
                list.add(ports.get(portKey));
            }
        });
        Comparator<JsonNode> byIp = Comparator.comparing((JsonNode a) -> a.path("ip").asText())
                .thenComparing(a -> a.path("targetRef").path("uid").asText());
        List<ObjectNode> result = new ArrayList<>();
        byHash.forEach((hash, ready) -> {
            List<JsonNode> readyAddresses = new ArrayList<>();
            List<JsonNode> notReady = new ArrayList<>();
            ready.forEach((key, isReady) -> (isReady ? readyAddresses : notReady).add(allAddresses.get(key)));
            readyAddresses.sort(byIp);
            notReady.sort(byIp);
            ObjectNode subset = Json.object();
            readyAddresses.forEach(a -> subset.withArray("addresses").add(a));
            notReady.forEach(a -> subset.withArray("notReadyAddresses").add(a));
            if (!portsByHash.get(hash).isEmpty()) {
                subset.set("ports", portsByHash.get(hash));
            }
            result.add(subset);
        });
        return result;
    }
}
