package io.kapi.admission.policy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.ConfigurationExemption;
import io.kapi.admission.LiveCompiled;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.admission.cel.AdmissionCel;
import io.kapi.admission.cel.AdmissionRequests;
import io.kapi.admission.cel.MatchConditions;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.cel.CelLimits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-apiserver's {@code ValidatingAdmissionPolicy} plugin: every binding (by name) of a policy that
 * matches the request runs the policy's validations once per parameter object; a failure is denied,
 * warned about or audited as the binding's {@code validationActions} say, the first denial answering
 * the request ({@code ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ...}). Policies and
 * bindings themselves are never checked ({@link ConfigurationExemption}).
 */
public final class ValidatingAdmissionPolicyPlugin implements ValidatingPlugin {

    static final GroupVersionResource POLICIES =
            new GroupVersionResource("admissionregistration.k8s.io", "v1", "validatingadmissionpolicies");
    static final GroupVersionResource BINDINGS =
            new GroupVersionResource("admissionregistration.k8s.io", "v1", "validatingadmissionpolicybindings");
    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final String FAILURE_ANNOTATION = "validation.policy.admission.k8s.io/validation_failure";

    private record Compiled(Map<String, CompiledPolicy> policies, List<PolicyBinding> bindings) {
    }

    /** A failure of one policy under one binding. */
    private record Denial(CompiledPolicy policy, PolicyBinding binding, String message, String reason,
                          String errorType) {
    }

    private final PluginContext context;
    private final PolicyParams params;
    private final LiveCompiled<Compiled> compiled;

    public ValidatingAdmissionPolicyPlugin(PluginContext context) {
        this.context = context;
        this.params = new PolicyParams(context);
        this.compiled = new LiveCompiled<>(List.of(context.live().watch(POLICIES), context.live().watch(BINDINGS)),
                items -> compile(items.get(0), items.get(1)));
    }

    private static Compiled compile(List<ObjectNode> policies, List<ObjectNode> bindings) {
        Map<String, CompiledPolicy> byName = new HashMap<>();
        policies.forEach(p -> {
            CompiledPolicy c = CompiledPolicy.of(p);
            byName.put(c.name(), c);
        });
        List<PolicyBinding> sorted = new ArrayList<>(bindings.stream().map(PolicyBinding::of).toList());
        sorted.sort(Comparator.comparing(PolicyBinding::name));
        return new Compiled(Map.copyOf(byName), List.copyOf(sorted));
    }

    @Override
    public String name() {
        return "ValidatingAdmissionPolicy";
    }

    @Override
    public boolean handles(Operation operation) {
        return true;
    }

    @Override
    public void validate(Attributes a) {
        Compiled c = compiled.get();
        if (c.bindings().isEmpty() || ConfigurationExemption.fromPolicies(a)) {
            return;
        }
        Denial first = null;
        ArrayNode audited = Json.MAPPER.createArrayNode();
        for (PolicyBinding binding : c.bindings()) {
            CompiledPolicy policy = c.policies().get(binding.policyName());
            if (policy == null || !applies(policy, binding, a)) {
                continue;
            }
            long start = System.nanoTime();
            List<Denial> denials = evaluate(policy, binding, a);
            observe(policy, binding, denials, start);
            for (Denial d : denials) {
                if (binding.actions().contains("Deny") && first == null) {
                    first = d;
                }
                if (binding.actions().contains("Warn")) {
                    a.warn("Validation failed for ValidatingAdmissionPolicy '" + policy.name() + "' with binding '"
                            + binding.name() + "': " + d.message());
                }
                if (binding.actions().contains("Audit")) {
                    audited.addObject().put("message", d.message()).put("policy", policy.name())
                            .put("binding", binding.name()).putArray("validationActions")
                            .addAll(binding.actions().stream().sorted().map(Json.NODES::textNode).toList());
                }
            }
        }
        if (!audited.isEmpty()) {
            a.auditAnnotations().put(FAILURE_ANNOTATION, audited.toString());
        }
        if (first != null) {
            throw denied(a, first);
        }
    }

    /**
     * kube's check metrics of one binding: {@code allow} when nothing failed, else one check per action the
     * binding takes on the failure ({@code deny}, {@code warn}, {@code audit}).
     */
    private void observe(CompiledPolicy policy, PolicyBinding binding, List<Denial> denials, long start) {
        if (denials.isEmpty()) {
            context.metrics().policyCheck(policy.name(), binding.name(), "no_error", "allow", start);
            return;
        }
        String errorType = denials.getFirst().errorType();
        for (String action : binding.actions()) {
            context.metrics().policyCheck(policy.name(), binding.name(), errorType,
                    action.toLowerCase(java.util.Locale.ROOT), start);
        }
    }

    private boolean applies(CompiledPolicy policy, PolicyBinding binding, Attributes a) {
        return policy.match().matches(a, context.lookup())
                && (binding.match() == null || binding.match().matches(a, context.lookup()));
    }

    /** The failures of {@code policy} under {@code binding}: one evaluation per parameter object. */
    private List<Denial> evaluate(CompiledPolicy policy, PolicyBinding binding, Attributes a) {
        PolicyParams.Resolved resolved = params.resolve(policy.paramKind(), binding, a);
        if (resolved.error() != null) {
            return policy.failOpen() ? List.of()
                    : List.of(new Denial(policy, binding, resolved.error(), "Invalid", "internal_error"));
        }
        ObjectNode request = AdmissionRequests.of(a, "");
        Map<String, Object> base = new HashMap<>(AdmissionCel.activation(a, context.authorizer(), request));
        base.put("namespaceObject", AdmissionCel.value(namespaceObject(a).orElse(null)));
        List<Denial> denials = new ArrayList<>();
        for (ObjectNode param : resolved.objects()) {
            Map<String, Object> vars = new HashMap<>(base);
            vars.put("params", AdmissionCel.value(param == null ? NullNode.getInstance() : param));
            if (!conditionsMatch(policy, binding, vars, denials)) {
                continue;
            }
            PolicyEvaluator.Outcome outcome = PolicyEvaluator.evaluate(policy, vars,
                    CelLimits.KUBE.runtimeBudget());
            outcome.auditAnnotations().forEach(a.auditAnnotations()::put);
            outcome.failures().forEach(f -> denials.add(new Denial(policy, binding, f.message(), f.reason(),
                    f.errorType())));
        }
        return denials;
    }

    private boolean conditionsMatch(CompiledPolicy policy, PolicyBinding binding, Map<String, Object> vars,
                                    List<Denial> denials) {
        MatchConditions conditions = policy.conditions();
        if (conditions.isEmpty()) {
            return true;
        }
        return switch (conditions.evaluate(vars, CelLimits.KUBE.matchConditionsBudget())) {
            case MatchConditions.Result.Match m -> true;
            case MatchConditions.Result.NoMatch n -> false;
            case MatchConditions.Result.Error e -> {
                if (!policy.failOpen()) {
                    denials.add(new Denial(policy, binding, "failed to evaluate match condition \"" + e.condition()
                            + "\": " + e.message(), "Invalid", "internal_error"));
                }
                yield false;
            }
        };
    }

    private Optional<ObjectNode> namespaceObject(Attributes a) {
        String ns = a.target().namespace();
        return ns.isEmpty() ? Optional.empty() : context.lookup().get(NAMESPACES, "", ns);
    }

    /** kube's denial: Forbidden's message with the validation's reason (default Invalid) and its code. */
    private static ApiException denied(Attributes a, Denial d) {
        String why = "ValidatingAdmissionPolicy '" + d.policy().name() + "' with binding '" + d.binding().name()
                + "' denied request: " + d.message();
        Attributes.Target t = a.target();
        String resource = t.resource().qualifiedResource();
        String message = t.name().isEmpty() ? resource + " is forbidden: " + why
                : resource + " \"" + t.name() + "\" is forbidden: " + why;
        StatusReason reason = switch (d.reason()) {
            case "Forbidden" -> StatusReason.FORBIDDEN;
            case "Unauthorized" -> StatusReason.UNAUTHORIZED;
            case "RequestEntityTooLarge" -> StatusReason.REQUEST_ENTITY_TOO_LARGE;
            default -> StatusReason.INVALID;
        };
        return new ApiException(reason, reason.code(), message, new ApiException.Details(
                t.name().isEmpty() ? null : t.name(), t.resource().group().isEmpty() ? null : t.resource().group(),
                t.resource().resource(), List.of(new StatusCause(null, message, null)), null));
    }
}
