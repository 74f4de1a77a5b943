package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * kube-apiserver's {@code ServiceAccount} plugin on pod creation: {@code serviceAccountName} defaults to
 * {@code default}; unless automounting is off (on the pod or its service account), a projected
 * {@code kube-api-access-xxxxx} volume (token, {@code kube-root-ca.crt}, namespace) is added and mounted
 * read-only in every container at {@code /var/run/secrets/kubernetes.io/serviceaccount}; the account's
 * image pull secrets are copied when the pod has none. The account must exist: a pod naming a missing
 * one is refused (403), as kube-apiserver refuses it; it is read from the watch cache, then from storage,
 * and {@code default} again for up to a couple of seconds, as the service-account controller makes it
 * when a namespace appears (kube's plugin retries the default account ten times, 100-200 ms apart).
 */
public final class ServiceAccountAdmission implements MutatingPlugin {

    static final String TOKEN_MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";
    private static final GroupVersionResource SERVICE_ACCOUNTS = new GroupVersionResource("", "v1", "serviceaccounts");
    private static final String NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";
    /** kube's plugin looks the default account up this often before refusing: the controller may be making it. */
    private static final int DEFAULT_ATTEMPTS = 10;

    private final ObjectLookup lookup;

    public ServiceAccountAdmission(ObjectLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public String name() {
        return "ServiceAccount";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(Attributes a) {
        if (!a.isMain("", "pods") || a.object() == null) {
            return;
        }
        if (a.object().path("metadata").path("annotations").has("kubernetes.io/config.mirror")) {
            return; // kube leaves mirror pods' spec alone: the kubelet deletes a mirror pod whose spec changed
        }
        ObjectNode spec = a.object().with("spec");
        String name = spec.path("serviceAccountName").asText("");
        if (name.isEmpty()) {
            name = "default";
            spec.put("serviceAccountName", name);
        }
        spec.put("serviceAccount", name);
        String namespace = a.target().namespace();
        String accountName = name;
        ObjectNode account = account(namespace, name).orElseThrow(() -> a.forbidden(
                "error looking up service account %s/%s: serviceaccount \"%s\" not found"
                        .formatted(namespace, accountName, accountName)));
        if (!spec.has("imagePullSecrets") && account.has("imagePullSecrets")) {
            spec.set("imagePullSecrets", account.get("imagePullSecrets").deepCopy());
        }
        boolean automount = spec.has("automountServiceAccountToken")
                ? spec.get("automountServiceAccountToken").asBoolean(true)
                : account.path("automountServiceAccountToken").asBoolean(true);
        if (automount) {
            mountToken(spec);
        }
    }

    /** kube's {@code getServiceAccount}: the cache, then storage, the default account up to ten times. */
    private Optional<ObjectNode> account(String namespace, String name) {
        Optional<ObjectNode> cached = lookup.cached(SERVICE_ACCOUNTS, namespace, name);
        if (cached.isPresent()) {
            return cached;
        }
        int attempts = name.equals("default") ? DEFAULT_ATTEMPTS : 1;
        for (int i = 0; i < attempts; i++) {
            if (i > 0) {
                try {
                    Thread.sleep(100 + ThreadLocalRandom.current().nextInt(100));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            Optional<ObjectNode> stored = lookup.get(SERVICE_ACCOUNTS, namespace, name);
            if (stored.isPresent()) {
                return stored;
            }
        }
        return Optional.empty();
    }

    private static void mountToken(ObjectNode spec) {
        String volume = "kube-api-access-" + random(5);
        boolean mounted = false;
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode c : spec.path(list)) {
                ArrayNode mounts = ((ObjectNode) c).withArray("volumeMounts");
                boolean taken = false;
                for (JsonNode m : mounts) {
                    taken |= m.path("mountPath").asText().equals(TOKEN_MOUNT);
                }
                if (!taken) {
                    mounts.addObject().put("mountPath", TOKEN_MOUNT).put("name", volume).put("readOnly", true);
                    mounted = true;
                }
            }
        }
        if (mounted) {
            ObjectNode projected = spec.withArray("volumes").addObject().put("name", volume).putObject("projected");
            projected.put("defaultMode", 420);
            ArrayNode sources = projected.putArray("sources");
            sources.addObject().putObject("serviceAccountToken").put("expirationSeconds", 3607).put("path", "token");
            ObjectNode configMap = sources.addObject().putObject("configMap");
            configMap.putArray("items").addObject().put("key", "ca.crt").put("path", "ca.crt");
            configMap.put("name", "kube-root-ca.crt");
            ObjectNode item = sources.addObject().putObject("downwardAPI").putArray("items").addObject();
            item.putObject("fieldRef").put("apiVersion", "v1").put("fieldPath", "metadata.namespace");
            item.put("path", "namespace");
        }
    }

    private static String random(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(NAME_CHARS.charAt(ThreadLocalRandom.current().nextInt(NAME_CHARS.length())));
        }
        return b.toString();
    }
}
