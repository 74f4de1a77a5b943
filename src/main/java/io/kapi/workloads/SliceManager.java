package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.informers.Informer;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The EndpointSlices one controller manages, told apart as kube's are: {@code endpointslice.kubernetes.io/managed-by}
 * names the controller and {@code kubernetes.io/service-name} the Service they are for. Shared by the
 * endpointslice controller and the endpointslice-mirroring controller, each with its own manager name.
 *
 * @param controller the manager's name, e.g. {@code endpointslice-controller.k8s.io}
 */
record SliceManager(String controller) {

    static final GroupVersionResource SLICES = new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");
    static final String MANAGED_BY = "endpointslice.kubernetes.io/managed-by";
    static final String SERVICE_NAME = "kubernetes.io/service-name";

    /** The work-queue key ({@code namespace/service}) of a slice this manager manages; empty for another's. */
    Optional<String> serviceKey(ObjectNode slice) {
        JsonNode labels = slice.path("metadata").path("labels");
        if (!labels.path(MANAGED_BY).asText("").equals(controller) || !labels.hasNonNull(SERVICE_NAME)) {
            return Optional.empty();
        }
        return Optional.of(ObjectMeta.of(slice).namespace() + "/" + labels.get(SERVICE_NAME).asText());
    }

    /** The slices of {@code informer} in {@code namespace} this manager made for Service {@code service}. */
    List<ObjectNode> slicesOf(Informer informer, String namespace, String service) {
        List<ObjectNode> found = new ArrayList<>();
        for (ObjectNode slice : informer.list(namespace)) {
            JsonNode labels = slice.path("metadata").path("labels");
            if (labels.path(MANAGED_BY).asText("").equals(controller)
                    && labels.path(SERVICE_NAME).asText("").equals(service)) {
                found.add(slice);
            }
        }
        return found;
    }

    /** A slice's labels: {@code source}'s (the Service's or the Endpoints'), then the service name and manager over them. */
    ObjectNode labels(ObjectNode source) {
        ObjectNode labels = Json.object();
        source.path("metadata").path("labels").properties().forEach(e -> labels.set(e.getKey(), e.getValue()));
        labels.put(SERVICE_NAME, ObjectMeta.of(source).name());
        labels.put(MANAGED_BY, controller);
        return labels;
    }
}
