package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.admission.plugin.podsecurity.Evaluator;
import io.kapi.admission.plugin.podsecurity.ExistingPods;
import io.kapi.admission.plugin.podsecurity.Level;
import io.kapi.admission.plugin.podsecurity.LevelVersion;
import io.kapi.admission.plugin.podsecurity.NamespacePolicy;
import io.kapi.admission.plugin.podsecurity.PodSecurityConfig;
import io.kapi.admission.plugin.podsecurity.PodView;
import io.kapi.admission.plugin.podsecurity.Violation;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.registry.PodTemplatePath;
import io.kapi.registry.ResourceDefinition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * kube-apiserver's default-on {@code PodSecurity}: the Pod Security Standards by namespace label
 * ({@code pod-security.kubernetes.io/enforce|audit|warn} and their {@code -version}s, over the configured
 * {@code defaults}). A pod that violates the enforce level is Forbidden ({@code violates PodSecurity
 * "restricted:latest": ...}); violations of the warn level are warnings ({@code would violate PodSecurity ...}),
 * of the audit level audit annotations; workloads' pod templates are warned and audited, never enforced.
 * Namespace labels that do not parse are refused, and tightening a namespace's enforce level warns about its
 * existing pods. Exemptions (users, runtime classes, namespaces) come from the plugin configuration.
 */
public final class PodSecurity implements ValidatingPlugin {

    private static final String AUDIT_PREFIX = "pod-security.kubernetes.io/";
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final GroupVersionKind NAMESPACE = new GroupVersionKind("", "v1", "Namespace");
    private static final Set<String> IGNORED_POD_SUBRESOURCES = Set.of("exec", "attach", "binding", "eviction", "log",
            "portforward", "proxy", "status");

    private final ObjectLookup lookup;
    private final Function<GroupVersionResource, Optional<ResourceDefinition>> definitions;
    private final PodSecurityConfig config;
    private final Evaluator evaluator = new Evaluator();

    /**
     * @param definitions the served resources' definitions, which say where a workload holds its pod template
     * @throws IllegalArgumentException for a configuration whose defaults do not parse
     */
    public PodSecurity(ObjectLookup lookup, Function<GroupVersionResource, Optional<ResourceDefinition>> definitions,
                       JsonNode configuration) {
        this.lookup = lookup;
        this.definitions = definitions;
        this.config = PodSecurityConfig.parse(configuration);
    }

    @Override
    public String name() {
        return "PodSecurity";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void validate(Attributes a) {
        GroupVersionResource r = a.target().resource();
        if (a.object() == null) {
            return;
        }
        if (r.group().isEmpty() && r.resource().equals("namespaces")) {
            validateNamespace(a);
        } else if (r.group().isEmpty() && r.resource().equals("pods")) {
            validatePod(a);
        } else if (a.target().subresource().isEmpty()) {
            PodTemplatePath template = definitions.apply(r).map(d -> d.behaviour().podTemplate()).orElse(null);
            if (template != null) {
                PodView.ofTemplate(template.in(a.object())).ifPresent(t -> validateWorkload(a, t));
            }
        }
    }

    private void validateNamespace(Attributes a) {
        if (!a.target().subresource().isEmpty()) {
            return;
        }
        String name = a.object().path("metadata").path("name").asText(a.target().name());
        NamespacePolicy.Parsed parsed = NamespacePolicy.parse(labels(a.object()), config.defaults());
        NamespacePolicy.Parsed old = a.oldObject() == null ? null
                : NamespacePolicy.parse(labels(a.oldObject()), config.defaults());
        if (!parsed.errors().isEmpty() && (old == null || !parsed.errors().equals(old.errors()))) {
            throw ApiException.invalid(NAMESPACE, name, parsed.errors());
        }
        NamespacePolicy policy = parsed.policy();
        if (old != null && !tightened(old.policy().enforce(), policy.enforce())) {
            return;
        }
        if (config.exemptNamespace(name)) {
            exemptWarning(name, policy, labels(a.object())).ifPresent(a::warn);
        } else if (old != null) {
            ExistingPods.warnings(name, policy.enforce(), lookup.list(PODS, name), config, evaluator).forEach(a::warn);
        }
    }

    /** kube's reasons to dry-run the existing pods: the enforce level changed to a stricter one or version. */
    private static boolean tightened(LevelVersion before, LevelVersion after) {
        if (after.equals(before) || after.level() == Level.PRIVILEGED) {
            return false;
        }
        return after.minor() != before.minor() || after.level().compareTo(before.level()) > 0;
    }

    private void validatePod(Attributes a) {
        if (IGNORED_POD_SUBRESOURCES.contains(a.target().subresource())) {
            return;
        }
        if (exempt(a)) {
            return;
        }
        NamespacePolicy.Parsed policy = namespacePolicy(a.target().namespace());
        if (policy.errors().isEmpty() && policy.policy().fullyPrivileged()) {
            a.auditAnnotations().put(AUDIT_PREFIX + "enforce-policy", LevelVersion.PRIVILEGED_LATEST.toString());
            return;
        }
        if (a.operation() == Operation.UPDATE && a.oldObject() != null
                && !PodUpdates.significant(a.object(), a.oldObject())) {
            return;
        }
        evaluate(a, policy, new PodView(a.object().path("metadata"), a.object().path("spec")), true);
    }

    private void validateWorkload(Attributes a, PodView template) {
        if (exempt(a)) {
            return;
        }
        NamespacePolicy.Parsed policy = namespacePolicy(a.target().namespace());
        NamespacePolicy p = policy.policy();
        if (policy.errors().isEmpty() && p.warn().level() == Level.PRIVILEGED && p.audit().level() == Level.PRIVILEGED) {
            return;
        }
        evaluate(a, policy, template, false);
    }

    private boolean exempt(Attributes a) {
        if (config.exemptNamespace(a.target().namespace())) {
            a.auditAnnotations().put(AUDIT_PREFIX + "exempt", "namespace");
            return true;
        }
        if (config.exemptUser(a.user() == null ? "" : a.user().name())) {
            a.auditAnnotations().put(AUDIT_PREFIX + "exempt", "user");
            return true;
        }
        return false;
    }

    /** The namespace's policy; a namespace that cannot be read has the defaults (NamespaceLifecycle refused it). */
    private NamespacePolicy.Parsed namespacePolicy(String namespace) {
        JsonNode labels = lookup.get(NAMESPACES, "", namespace).map(PodSecurity::labels).orElse(null);
        return NamespacePolicy.parse(labels, config.defaults());
    }

    private void evaluate(Attributes a, NamespacePolicy.Parsed parsed, PodView pod, boolean enforce) {
        if (config.exemptRuntimeClass(pod.spec())) {
            a.auditAnnotations().put(AUDIT_PREFIX + "exempt", "runtimeClass");
            return;
        }
        NamespacePolicy policy = parsed.policy();
        if (!parsed.errors().isEmpty()) {
            a.auditAnnotations().put(AUDIT_PREFIX + "error", "Failed to parse policy: " + aggregate(parsed));
        }
        Map<LevelVersion, List<Violation>> results = new HashMap<>();
        List<Violation> enforced = List.of();
        if (enforce) {
            a.auditAnnotations().put(AUDIT_PREFIX + "enforce-policy", policy.enforce().toString());
            enforced = results.computeIfAbsent(policy.enforce(), lv -> evaluator.evaluate(lv, pod));
        }
        List<Violation> audited = results.computeIfAbsent(policy.audit(), lv -> evaluator.evaluate(lv, pod));
        if (!audited.isEmpty()) {
            a.auditAnnotations().put(AUDIT_PREFIX + "audit-violations", "would violate PodSecurity \"%s\": %s"
                    .formatted(policy.audit(), Violation.describe(audited)));
        }
        if (!enforced.isEmpty()) {
            throw a.forbidden("violates PodSecurity \"%s\": %s"
                    .formatted(policy.enforce(), Violation.describe(enforced)));
        }
        List<Violation> warned = results.computeIfAbsent(policy.warn(), lv -> evaluator.evaluate(lv, pod));
        if (!warned.isEmpty()) {
            a.warn("would violate PodSecurity \"%s\": %s".formatted(policy.warn(), Violation.describe(warned)));
        }
    }

    private static String aggregate(NamespacePolicy.Parsed parsed) {
        List<String> errors = parsed.errors().stream().map(Object::toString).toList();
        return errors.size() == 1 ? errors.getFirst() : "[" + String.join(", ", errors) + "]";
    }

    private static JsonNode labels(JsonNode object) {
        return object.path("metadata").path("labels");
    }

    /** kube's warning for an exempt namespace labelled with a policy that will not apply. */
    private Optional<String> exemptWarning(String namespace, NamespacePolicy policy, JsonNode labels) {
        if (policy.fullyPrivileged() || policy.equivalent(config.defaults())) {
            return Optional.empty();
        }
        StringBuilder b = new StringBuilder();
        appendMode(b, "enforce", policy.enforce(), labels);
        appendMode(b, "audit", policy.audit(), labels);
        appendMode(b, "warn", policy.warn(), labels);
        return Optional.of("namespace \"%s\" is exempt from Pod Security, and the policy (%s) will be ignored"
                .formatted(namespace, b));
    }

    private static void appendMode(StringBuilder b, String mode, LevelVersion lv, JsonNode labels) {
        boolean labelled = labels.has(NamespacePolicy.PREFIX + mode) || labels.has(NamespacePolicy.PREFIX + mode + "-version");
        if (lv.level() != Level.PRIVILEGED && labelled) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(mode).append('=').append(lv);
        }
    }
}
