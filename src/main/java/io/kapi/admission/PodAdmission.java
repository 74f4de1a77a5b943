package io.kapi.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The two default-enabled admission plugins that shape every new pod, applied when a pod is created:
 * <ul>
 *   <li>ServiceAccount: {@code serviceAccountName} defaults to {@code default}; unless automounting is
 *       off (on the pod or its service account), a projected {@code kube-api-access-xxxxx} volume
 *       (token, {@code kube-root-ca.crt}, namespace) is added and mounted read-only in every container
 *       at {@code /var/run/secrets/kubernetes.io/serviceaccount}; the account's image pull secrets are
 *       copied when the pod has none. A missing service account is tolerated, where kube-apiserver
 *       refuses the pod: with no controller creating accounts, that would refuse every pod.</li>
 *   <li>Priority: {@code priority} and {@code preemptionPolicy} from the pod's PriorityClass, or the
 *       global default class, or 0 and {@code PreemptLowerPriority}; an unknown class is Forbidden.</li>
 * </ul>
 * Stores are looked up lazily through {@link #connect(Registry)}, since strategies are built before the
 * registry that holds them.
 */
public final class PodAdmission {

    static final String TOKEN_MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final String NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";

    private volatile Registry registry;

    /** Gives the plugins the stores they read (service accounts, priority classes). */
    public void connect(Registry registry) {
        this.registry = registry;
    }

    /** Wraps the pod strategy so that creates run the plugins after preparing. */
    public Strategy decorate(Strategy pods) {
        return new Decorated(pods);
    }

    private final class Decorated implements StrategyDecorator {
        private final Strategy base;

        Decorated(Strategy base) {
            this.base = base;
        }

        @Override
        public Strategy base() {
            return base;
        }

        @Override
        public void prepareForCreate(ObjectNode pod) {
            base.prepareForCreate(pod);
            serviceAccount(pod);
            priority(pod);
        }
    }

    void serviceAccount(ObjectNode pod) {
        ObjectNode spec = pod.with("spec");
        String name = spec.path("serviceAccountName").asText("");
        if (name.isEmpty()) {
            name = "default";
            spec.put("serviceAccountName", name);
        }
        spec.put("serviceAccount", name);
        Optional<ObjectNode> account = find("", "v1", "serviceaccounts", ObjectMeta.of(pod).namespace(), name);
        if (!spec.has("imagePullSecrets") && account.isPresent() && account.get().has("imagePullSecrets")) {
            spec.set("imagePullSecrets", account.get().get("imagePullSecrets").deepCopy());
        }
        boolean automount = spec.has("automountServiceAccountToken")
                ? spec.get("automountServiceAccountToken").asBoolean(true)
                : account.map(a -> a.path("automountServiceAccountToken").asBoolean(true)).orElse(true);
        if (automount) {
            mountToken(spec);
        }
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

    void priority(ObjectNode pod) {
        ObjectNode spec = pod.with("spec");
        String className = spec.path("priorityClassName").asText("");
        Optional<ObjectNode> pc = className.isEmpty() ? globalDefault() : find("scheduling.k8s.io", "v1",
                "priorityclasses", "", className);
        if (!className.isEmpty() && pc.isEmpty()) {
            throw ApiException.forbidden(PODS, ObjectMeta.of(pod).name(),
                    "no PriorityClass with name " + className + " was found", List.of());
        }
        long value = pc.map(c -> c.path("value").asLong(0)).orElse(0L);
        if (spec.has("priority") && spec.get("priority").asLong() != value) {
            throw ApiException.forbidden(PODS, ObjectMeta.of(pod).name(), "the integer value of priority ("
                    + spec.get("priority").asLong() + ") must not be provided in pod spec; priority admission "
                    + "controller computed " + value + " from the given PriorityClass name", List.of());
        }
        spec.put("priority", value);
        if (pc.isPresent() && className.isEmpty()) {
            spec.put("priorityClassName", ObjectMeta.of(pc.get()).name());
        }
        if (!spec.has("preemptionPolicy")) {
            spec.put("preemptionPolicy", pc.map(c -> c.path("preemptionPolicy").asText("PreemptLowerPriority"))
                    .orElse("PreemptLowerPriority"));
        }
    }

    private Optional<ObjectNode> globalDefault() {
        return store("scheduling.k8s.io", "v1", "priorityclasses")
                .flatMap(s -> s.list("", ListOptions.ALL).items().stream()
                        .filter(c -> c.path("globalDefault").asBoolean(false)).findFirst());
    }

    private Optional<ObjectNode> find(String group, String version, String resource, String namespace, String name) {
        return store(group, version, resource).flatMap(s -> s.find(namespace, name));
    }

    private Optional<ResourceStore> store(String group, String version, String resource) {
        Registry r = registry;
        return r == null ? Optional.empty() : r.resource(group, version, resource).flatMap(r::store);
    }

    private static String random(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(NAME_CHARS.charAt(ThreadLocalRandom.current().nextInt(NAME_CHARS.length())));
        }
        return b.toString();
    }
}
