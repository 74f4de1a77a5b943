package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import java.util.Set;

/**
 * kube's crdRegistrationController with the aggregator's autoregistration: a local APIService
 * ({@code v1.stable.example.com}, group priority 1000, version priority 100, label
 * {@code kube-aggregator.kubernetes.io/automanaged: "true"}) for each group-version a CRD serves, deleted when the
 * last CRD serving it goes. Being local, it is created {@code Available=True} reason {@code Local} (the APIService
 * strategy) and kept so by the local availability controller.
 */
final class CrdApiServices {

    private static final System.Logger LOG = System.getLogger(CrdApiServices.class.getName());
    private static final String AUTOMANAGED = "kube-aggregator.kubernetes.io/automanaged";

    private final ResourceClient apiServices;

    CrdApiServices(ResourceClient apiServices) {
        this.apiServices = apiServices;
    }

    /** Makes sure the APIService of each of {@code served} exists; returns those that do. */
    Set<GroupVersion> ensure(Set<GroupVersion> served) {
        Set<GroupVersion> done = new java.util.HashSet<>();
        for (GroupVersion gv : served) {
            String name = gv.version() + "." + gv.group();
            try {
                if (apiServices.find("", name).isEmpty()) {
                    apiServices.create("", apiService(gv));
                }
                done.add(gv);
            } catch (ApiException e) {
                LOG.log(System.Logger.Level.DEBUG, "APIService {0} not reconciled yet: {1}", name, e.getMessage());
            }
        }
        return done;
    }

    /** Deletes the automanaged APIService of {@code gv}, which no CRD serves any more. */
    void remove(GroupVersion gv) {
        String name = gv.version() + "." + gv.group();
        try {
            apiServices.find("", name).filter(a -> "true".equals(a.path("metadata").path("labels")
                    .path(AUTOMANAGED).asText())).ifPresent(a -> apiServices.delete("", name, DeleteOptions.DEFAULT));
        } catch (ApiException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                LOG.log(System.Logger.Level.DEBUG, "APIService {0} not deleted yet: {1}", name, e.getMessage());
            }
        }
    }

    private static ObjectNode apiService(GroupVersion gv) {
        ObjectNode a = Json.object();
        a.put("apiVersion", "apiregistration.k8s.io/v1");
        a.put("kind", "APIService");
        ObjectMeta.of(a).name(gv.version() + "." + gv.group());
        ((ObjectNode) a.get("metadata")).putObject("labels").put(AUTOMANAGED, "true");
        a.putObject("spec").put("group", gv.group()).put("version", gv.version())
                .put("groupPriorityMinimum", 1000).put("versionPriority", 100);
        return a;
    }
}
