package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import io.kapi.client.ResourceClient;
import java.util.List;

/**
 * The post-start hook {@code start-system-namespaces-controller}: makes sure the namespaces every
 * cluster has exist. Safe to run again and concurrently with other replicas (AlreadyExists is fine).
 */
public record SystemNamespaces(ResourceClient namespaces) implements PostStartHook {

    public static final List<String> NAMES = List.of("default", "kube-system", "kube-public", "kube-node-lease");

    @Override
    public String name() {
        return "start-system-namespaces-controller";
    }

    @Override
    public void run() {
        for (String name : NAMES) {
            ObjectNode ns = Json.object();
            ns.put("apiVersion", "v1");
            ns.put("kind", "Namespace");
            ns.putObject("metadata").put("name", name);
            try {
                namespaces.create("", ns);
            } catch (ApiException e) {
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    throw e;
                }
            }
        }
    }
}
