package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * The post-start hook {@code bootstrap-controller}: kube-apiserver's kubernetes service controller
 * with the lease endpoint reconciler. {@link #reconcile()} makes sure that
 * <ul>
 *   <li>the namespace {@code default} exists;</li>
 *   <li>the Service {@code default/kubernetes} exists with the first IP of the service range and the
 *       port {@code https} 443 → the secure port (ports and type are repaired, like kube);</li>
 *   <li>this server's lease is renewed and the Endpoints {@code default/kubernetes} list exactly the
 *       addresses of the live leases with port {@code https}, and the EndpointSlice
 *       {@code default/kubernetes} mirrors them (kube's EndpointsAdapter).</li>
 * </ul>
 * The hook runs a first reconcile and returns (failures are logged, as in kube the readiness of the
 * hook does not wait for it); {@link BootstrapHooks} then repeats it every 10 s.
 */
final class KubernetesServiceController implements PostStartHook {

    private static final System.Logger LOG = System.getLogger(KubernetesServiceController.class.getName());
    static final String NAME = "kubernetes";
    static final String NAMESPACE = "default";

    private final ResourceClient namespaces;
    private final ResourceClient services;
    private final ResourceClient endpoints;
    private final ResourceClient endpointSlices;
    private final MasterLeases leases;
    private final String serviceIp;
    private final String advertiseIp;
    private final int securePort;

    KubernetesServiceController(LocalClient client, MasterLeases leases, String serviceIp, String advertiseIp,
                                int securePort) {
        this.namespaces = client.resource("", "v1", "namespaces");
        this.services = client.resource("", "v1", "services");
        this.endpoints = client.resource("", "v1", "endpoints");
        this.endpointSlices = client.resource("discovery.k8s.io", "v1", "endpointslices");
        this.leases = leases;
        this.serviceIp = serviceIp;
        this.advertiseIp = advertiseIp;
        this.securePort = securePort;
    }

    @Override
    public String name() {
        return "bootstrap-controller";
    }

    @Override
    public void run() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "kubernetes service not reconciled yet, retrying: {0}", e.getMessage());
        }
    }

    /** One reconciliation of the service, its endpoints and endpoint slice. */
    void reconcile() {
        ObjectNode ns = Json.object();
        ns.put("apiVersion", "v1");
        ns.put("kind", "Namespace");
        ns.putObject("metadata").put("name", NAMESPACE);
        if (namespaces.find("", NAMESPACE).isEmpty()) {
            Stores.createIfMissing(namespaces, ns);
        }
        ensureService();
        leases.renew(advertiseIp);
        List<String> ips = leases.liveIps();
        if (!ips.contains(advertiseIp)) {
            ips = new java.util.ArrayList<>(ips);
            ips.add(advertiseIp);
        }
        ObjectNode wantedEndpoints = endpoints(ips);
        ensure(endpoints, wantedEndpoints, "subsets");
        ensureSlice(endpointSlice(wantedEndpoints));
    }

    /** Drops this server from the endpoints (kube's pre-shutdown RemoveEndpoints). */
    void removeSelf() {
        leases.remove(advertiseIp);
        List<String> ips = leases.liveIps();
        if (endpoints.find(NAMESPACE, NAME).isPresent()) {
            ObjectNode wanted = endpoints(ips);
            ensure(endpoints, wanted, "subsets");
            ensureSlice(endpointSlice(wanted));
        }
    }

    /**
     * The slice as {@link #ensure} writes it, except that a slice of the other address type (a server that
     * advertised IPv4 now advertises IPv6) is deleted and created again: a slice's addressType is immutable.
     */
    private void ensureSlice(ObjectNode wanted) {
        endpointSlices.find(NAMESPACE, NAME)
                .filter(current -> !current.path("addressType").equals(wanted.path("addressType")))
                .ifPresent(current -> {
                    ObjectMeta meta = ObjectMeta.of(current);
                    endpointSlices.delete(NAMESPACE, NAME, new DeleteOptions(meta.uid(), meta.resourceVersion(), false, null, null));
                    LOG.log(Level.INFO, "re-creating the kubernetes endpoint slice as {0}", wanted.path("addressType").asText());
                });
        ensure(endpointSlices, wanted, "addressType", "endpoints", "ports");
    }

    private void ensureService() {
        ObjectNode wanted = service();
        if (services.find(NAMESPACE, NAME).isEmpty() && Stores.createIfMissing(services, wanted)) {
            LOG.log(Level.INFO, "created the kubernetes service with cluster IP {0}", serviceIp);
            return;
        }
        Stores.update(services, NAMESPACE, NAME, current -> {
            ObjectNode spec = (ObjectNode) current.path("spec");
            if (!spec.path("ports").equals(wanted.path("spec").path("ports"))
                    || !"ClusterIP".equals(spec.path("type").asText())) {
                spec.set("ports", wanted.path("spec").path("ports").deepCopy());
                spec.put("type", "ClusterIP");
            }
            return current;
        });
    }

    /** Writes {@code wanted} or repairs the listed top-level fields and the labels of the existing object. */
    private static void ensure(ResourceClient store, ObjectNode wanted, String... fields) {
        if (store.find(NAMESPACE, NAME).isEmpty() && Stores.createIfMissing(store, wanted)) {
            return;
        }
        Stores.update(store, NAMESPACE, NAME, current -> {
            for (String field : fields) {
                JsonNode value = wanted.get(field);
                if (value == null) {
                    current.remove(field);
                } else if (!value.equals(current.get(field))) {
                    current.set(field, value.deepCopy());
                }
            }
            ObjectNode labels = ((ObjectNode) current.path("metadata")).withObjectProperty("labels");
            wanted.path("metadata").path("labels").properties().forEach(e -> {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    labels.set(e.getKey(), e.getValue().deepCopy());
                }
            });
            return current;
        });
    }

    ObjectNode service() {
        ObjectNode svc = object("v1", "Service");
        ObjectNode labels = ((ObjectNode) svc.path("metadata")).putObject("labels");
        labels.put("component", "apiserver");
        labels.put("provider", "kubernetes");
        ObjectNode spec = svc.putObject("spec");
        ObjectNode port = spec.putArray("ports").addObject();
        port.put("name", "https");
        port.put("protocol", "TCP");
        port.put("port", 443);
        port.put("targetPort", securePort);
        spec.put("clusterIP", serviceIp);
        spec.putArray("clusterIPs").add(serviceIp);
        spec.put("type", "ClusterIP");
        spec.put("sessionAffinity", "None");
        spec.putArray("ipFamilies").add(serviceIp.contains(":") ? "IPv6" : "IPv4");
        spec.put("ipFamilyPolicy", "SingleStack");
        spec.put("internalTrafficPolicy", "Cluster");
        return svc;
    }

    ObjectNode endpoints(List<String> ips) {
        ObjectNode ep = object("v1", "Endpoints");
        ((ObjectNode) ep.path("metadata")).putObject("labels").put("endpointslice.kubernetes.io/skip-mirror", "true");
        if (ips.isEmpty()) {
            return ep;
        }
        ObjectNode subset = ep.putArray("subsets").addObject();
        ArrayNode addresses = subset.putArray("addresses");
        ips.stream().sorted().forEach(ip -> addresses.addObject().put("ip", ip));
        ObjectNode port = subset.putArray("ports").addObject();
        port.put("name", "https");
        port.put("port", securePort);
        port.put("protocol", "TCP");
        return ep;
    }

    /** kube's EndpointsAdapter: the slice of the first subset, ready addresses, one port list. */
    static ObjectNode endpointSlice(ObjectNode endpoints) {
        ObjectNode slice = object("discovery.k8s.io/v1", "EndpointSlice");
        ((ObjectNode) slice.path("metadata")).putObject("labels").put("kubernetes.io/service-name", NAME);
        JsonNode subset = endpoints.path("subsets").path(0);
        boolean ipv6 = !subset.path("addresses").isEmpty();
        for (JsonNode a : subset.path("addresses")) {
            ipv6 &= a.path("ip").asText().contains(":");
        }
        slice.put("addressType", ipv6 ? "IPv6" : "IPv4");
        if (subset.isMissingNode()) {
            return slice;
        }
        ArrayNode list = slice.putArray("endpoints");
        for (JsonNode a : subset.path("addresses")) {
            ObjectNode endpoint = list.addObject();
            endpoint.putArray("addresses").add(a.path("ip").asText());
            endpoint.putObject("conditions").put("ready", true);
        }
        ArrayNode ports = slice.putArray("ports");
        for (JsonNode p : subset.path("ports")) {
            ObjectNode port = ports.addObject();
            port.put("name", p.path("name").asText());
            port.put("port", p.path("port").asInt());
            port.put("protocol", p.path("protocol").asText());
        }
        return slice;
    }

    private static ObjectNode object(String apiVersion, String kind) {
        ObjectNode object = Json.object();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        ObjectNode meta = object.putObject("metadata");
        meta.put("name", NAME);
        meta.put("namespace", NAMESPACE);
        return object;
    }
}
