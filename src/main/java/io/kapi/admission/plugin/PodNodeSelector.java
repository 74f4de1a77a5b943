package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-apiserver's {@code PodNodeSelector} (off by default): a new pod's node selector is merged with its
 * namespace's ({@code scheduler.alpha.kubernetes.io/node-selector}, else the configured
 * {@code clusterDefaultNodeSelector}); a pod selector that contradicts it is refused, and so is one with a
 * label outside the namespace's whitelist of the plugin configuration
 * ({@code podNodeSelectorPluginConfig: {clusterDefaultNodeSelector: "k=v", <namespace>: "k=v"}}).
 */
public final class PodNodeSelector implements MutatingPlugin, ValidatingPlugin {

    static final String ANNOTATION = "scheduler.alpha.kubernetes.io/node-selector";
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final String DEFAULT_KEY = "clusterDefaultNodeSelector";

    private final ObjectLookup lookup;
    private final Map<String, Map<String, String>> whitelists;
    private final Map<String, String> clusterDefault;

    /**
     * @param configuration the plugin's configuration, or null
     * @throws IllegalArgumentException for a selector in it that does not parse
     */
    public PodNodeSelector(ObjectLookup lookup, JsonNode configuration) {
        this.lookup = lookup;
        Map<String, Map<String, String>> lists = new LinkedHashMap<>();
        JsonNode config = configuration == null ? null : configuration.path("podNodeSelectorPluginConfig");
        if (config != null) {
            config.properties().forEach(e -> lists.put(e.getKey(), parse(e.getValue().asText(""))));
        }
        this.clusterDefault = lists.getOrDefault(DEFAULT_KEY, Map.of());
        lists.remove(DEFAULT_KEY);
        this.whitelists = Map.copyOf(lists);
    }

    @Override
    public String name() {
        return "PodNodeSelector";
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
        Map<String, String> namespaceSelector = namespaceSelector(a.target().namespace());
        Map<String, String> podSelector = nodeSelector(a.object());
        checkNoConflict(a, namespaceSelector, podSelector);
        Map<String, String> merged = new LinkedHashMap<>(podSelector);
        merged.putAll(namespaceSelector);
        if (!merged.isEmpty()) {
            ObjectNode spec = a.object().get("spec") instanceof ObjectNode s ? s : a.object().putObject("spec");
            ObjectNode selector = spec.putObject("nodeSelector");
            merged.forEach(selector::put);
        }
    }

    @Override
    public void validate(Attributes a) {
        if (!a.isMain("", "pods") || a.object() == null) {
            return;
        }
        Map<String, String> podSelector = nodeSelector(a.object());
        checkNoConflict(a, namespaceSelector(a.target().namespace()), podSelector);
        Map<String, String> whitelist = whitelists.get(a.target().namespace());
        if (whitelist != null && !podSelector.entrySet().stream()
                .allMatch(e -> e.getValue().equals(whitelist.get(e.getKey())))) {
            throw ApiException.forbidden(PODS, a.target().name(),
                    "pod node label selector labels conflict with its namespace whitelist", List.of());
        }
    }

    private static void checkNoConflict(Attributes a, Map<String, String> namespaceSelector,
                                        Map<String, String> podSelector) {
        for (Map.Entry<String, String> e : namespaceSelector.entrySet()) {
            String pod = podSelector.get(e.getKey());
            if (pod != null && !pod.equals(e.getValue())) {
                throw ApiException.forbidden(PODS, a.target().name(),
                        "pod node label selector conflicts with its namespace node label selector", List.of());
            }
        }
    }

    /** The namespace's annotation when it has one (even empty), else the cluster default. */
    private Map<String, String> namespaceSelector(String namespace) {
        Optional<ObjectNode> ns = lookup.get(NAMESPACES, "", namespace);
        if (ns.isEmpty()) {
            throw ApiException.notFound(NAMESPACES, namespace);
        }
        JsonNode annotation = ns.get().path("metadata").path("annotations").get(ANNOTATION);
        if (annotation != null && annotation.isTextual()) {
            try {
                return parse(annotation.asText());
            } catch (IllegalArgumentException e) {
                throw ApiException.forbidden(PODS, "", e.getMessage(), List.of());
            }
        }
        return clusterDefault;
    }

    private static Map<String, String> nodeSelector(ObjectNode pod) {
        Map<String, String> selector = new LinkedHashMap<>();
        pod.path("spec").path("nodeSelector").properties().forEach(e -> selector.put(e.getKey(), e.getValue().asText()));
        return selector;
    }

    /**
     * {@code labels.ConvertSelectorToLabelsMap}: {@code k=v,k2=v2} ({@code ==} too).
     *
     * @throws IllegalArgumentException for a term that is not {@code key=value}
     */
    static Map<String, String> parse(String selector) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String term : selector.split(",")) {
            String t = term.strip();
            if (t.isEmpty()) {
                continue;
            }
            String[] kv = t.split("==?", 2);
            if (kv.length != 2 || kv[0].strip().isEmpty() || kv[0].endsWith("!")) {
                throw new IllegalArgumentException("invalid selector: " + t);
            }
            map.put(kv[0].strip(), kv[1].strip());
        }
        return map;
    }
}
