package io.kapi.admission.policy;

import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.ConfigurationExemption;
import io.kapi.admission.LiveCompiled;
import io.kapi.admission.Operation;
import io.kapi.admission.ReinvocablePlugin;
import io.kapi.admission.Reinvocation;
import io.kapi.admission.cel.AdmissionCel;
import io.kapi.admission.cel.AdmissionRequests;
import io.kapi.admission.cel.MatchConditions;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.cel.CelBudget;
import io.kapi.machinery.cel.CelLimits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * kube-apiserver's {@code MutatingAdmissionPolicy} plugin (beta in 1.34; on with the feature gate of that
 * name): every binding of a policy that matches the request runs the policy's mutations in order, once per
 * parameter object, each seeing the object as the ones before left it; the object is defaulted after each.
 * Bindings run by policy name, then binding name. A policy with {@code reinvocationPolicy: IfNeeded} runs
 * again in the chain's second pass when the object changed after it ran ({@link Reinvocation}). Errors
 * (configuration, match conditions, expressions, patches) deny the request unless the policy's
 * failurePolicy is Ignore: {@code policy 'p' with binding 'b' denied request: ...}, as kube's dispatcher
 * words it, after every policy ran. Policies and bindings themselves are never mutated
 * ({@link ConfigurationExemption}).
 */
public final class MutatingAdmissionPolicyPlugin implements ReinvocablePlugin {

    private static final String GROUP = "admissionregistration.k8s.io";
    private static final List<String> VERSIONS = List.of("v1beta1", "v1alpha1");
    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");

    /** A policy bound by one binding. */
    private record Hook(CompiledMutatingPolicy policy, PolicyBinding binding) {
    }

    /** kube's invocation key: policy, binding and parameter object. */
    private record Key(String policy, String binding, String paramNamespace, String paramName) {
    }

    /**
     * An error of one policy under one binding.
     *
     * @param reason the status reason kube gives it (Invalid from the mutating dispatcher, none otherwise)
     */
    private record PolicyError(Hook hook, String message, StatusReason reason) {

        String text() {
            return "policy '" + hook.policy().name() + "' with binding '" + hook.binding().name()
                    + "' denied request: " + message;
        }
    }

    /** What the chain's passes share for one request: kube's {@code policyReinvokeContext}. */
    private static final class State {
        ObjectNode lastOutput;
        final Set<Key> invokedReinvocable = new HashSet<>();
        final Set<Key> reinvoke = new HashSet<>();

        void requireReinvokingPreviouslyInvoked() {
            reinvoke.addAll(invokedReinvocable);
            invokedReinvocable.clear();
        }
    }

    private final PluginContext context;
    private final PolicyParams params;
    private final LiveCompiled<List<Hook>> hooks;

    public MutatingAdmissionPolicyPlugin(PluginContext context) {
        this.context = context;
        this.params = new PolicyParams(context);
        List<io.kapi.admission.LiveObjects> views = new ArrayList<>();
        for (String version : VERSIONS) {
            views.add(context.live().watch(new GroupVersionResource(GROUP, version, "mutatingadmissionpolicies")));
            views.add(context.live().watch(new GroupVersionResource(GROUP, version, "mutatingadmissionpolicybindings")));
        }
        this.hooks = new LiveCompiled<>(views, MutatingAdmissionPolicyPlugin::compile);
    }

    /**
     * The hooks of the views (policies and bindings of each served version, one storage: an object seen
     * in both versions counts once), by policy name, then binding name.
     */
    private static List<Hook> compile(List<List<ObjectNode>> views) {
        Map<String, ObjectNode> policies = new LinkedHashMap<>();
        Map<String, ObjectNode> bindings = new LinkedHashMap<>();
        for (int i = 0; i < views.size(); i += 2) {
            views.get(i).forEach(p -> policies.putIfAbsent(ObjectMeta.of(p).name(), p));
            views.get(i + 1).forEach(b -> bindings.putIfAbsent(ObjectMeta.of(b).name(), b));
        }
        Map<String, CompiledMutatingPolicy> byName = new HashMap<>();
        policies.forEach((name, p) -> byName.put(name, CompiledMutatingPolicy.of(p)));
        List<Hook> out = new ArrayList<>();
        for (ObjectNode b : bindings.values()) {
            PolicyBinding binding = PolicyBinding.of(b);
            CompiledMutatingPolicy policy = byName.get(binding.policyName());
            if (policy != null) {
                out.add(new Hook(policy, binding));
            }
        }
        out.sort(Comparator.comparing((Hook h) -> h.policy().name()).thenComparing(h -> h.binding().name()));
        return List.copyOf(out);
    }

    @Override
    public String name() {
        return "MutatingAdmissionPolicy";
    }

    @Override
    public boolean handles(Operation operation) {
        return true;
    }

    @Override
    public void admit(Attributes a, Reinvocation reinvocation) {
        List<Hook> all = hooks.get();
        if (all.isEmpty() || ConfigurationExemption.fromPolicies(a)) {
            return;
        }
        State state = reinvocation.state(name(), State::new);
        if (reinvocation.isReinvoke() && !Objects.equals(state.lastOutput, a.object())) {
            state.requireReinvokingPreviouslyInvoked();
        }
        List<PolicyError> errors = new ArrayList<>();
        boolean invoked = false;
        try {
            for (Hook hook : all) {
                if (applies(hook, a)) {
                    invoked |= invoke(hook, a, reinvocation, state, errors);
                }
            }
        } finally {
            // what a reinvocation compares with; only a pass that invoked a policy can be reinvoked
            if (invoked) {
                state.lastOutput = a.object() == null ? null : a.object().deepCopy();
            }
        }
        List<PolicyError> failing = errors.stream().filter(e -> !e.hook().policy().failOpen()).toList();
        if (!failing.isEmpty()) {
            throw denied(a, failing);
        }
    }

    private boolean applies(Hook hook, Attributes a) {
        return hook.policy().match().matches(a, context.lookup())
                && (hook.binding().match() == null || hook.binding().match().matches(a, context.lookup()));
    }

    /** The hook's invocations, one per parameter object; whether any ran. */
    private boolean invoke(Hook hook, Attributes a, Reinvocation reinvocation, State state, List<PolicyError> errors) {
        PolicyParams.Resolved resolved = params.resolve(hook.policy().paramKind(), hook.binding(), a);
        if (resolved.error() != null) {
            errors.add(new PolicyError(hook, resolved.error(), null));
            return false;
        }
        boolean invoked = false;
        for (ObjectNode param : resolved.objects()) {
            Key key = key(hook, param);
            Map<String, Object> vars = activation(a, param);
            if (!conditionsMatch(hook, vars, errors)
                    || reinvocation.isReinvoke() && !state.reinvoke.contains(key)) {
                continue;
            }
            invoked = true;
            ObjectNode before = a.object() == null ? null : a.object().deepCopy();
            mutate(hook, a, vars, errors);
            if (!Objects.equals(before, a.object())) {
                state.requireReinvokingPreviouslyInvoked();
                reinvocation.requestReinvoke();
            }
            if (hook.policy().reinvokeIfNeeded()) {
                state.invokedReinvocable.add(key);
            }
        }
        return invoked;
    }

    /**
     * The policy's mutations in order, each on the object the ones before left, defaulted after each;
     * {@code vars} is the invocation's activation (the one its match conditions saw), given the policy's
     * variables before the first mutation.
     */
    private void mutate(Hook hook, Attributes a, Map<String, Object> vars, List<PolicyError> errors) {
        boolean variablesSet = false;
        for (CompiledMutatingPolicy.Mutation mutation : hook.policy().mutations()) {
            if (a.object() == null) {
                continue;
            }
            if (!variablesSet) {
                PolicyEvaluator.variables(hook.policy().variables(), vars,
                        new CelBudget(CelLimits.KUBE.runtimeBudget()));
                variablesSet = true;
            }
            vars.put("object", AdmissionCel.value(a.object()));
            vars.put("request", io.kapi.machinery.cel.CelValues.of(AdmissionRequests.of(a, "")));
            try {
                ObjectNode mutated = PolicyMutation.apply(mutation, a.target().kind(), a.object(), vars,
                        CelLimits.KUBE.runtimeBudget(), context.shapes());
                if (mutated != a.object()) {
                    context.shapes().applyDefaults(a.target().kind(), mutated);
                    a.object().removeAll();
                    a.object().setAll(mutated);
                }
            } catch (PolicyMutation.Failure f) {
                errors.add(new PolicyError(hook, f.getMessage(), StatusReason.INVALID));
            }
        }
    }

    private boolean conditionsMatch(Hook hook, Map<String, Object> vars, List<PolicyError> errors) {
        MatchConditions conditions = hook.policy().conditions();
        if (conditions.isEmpty()) {
            return true;
        }
        return switch (conditions.evaluate(vars, CelLimits.KUBE.matchConditionsBudget())) {
            case MatchConditions.Result.Match m -> true;
            case MatchConditions.Result.NoMatch n -> false;
            case MatchConditions.Result.Error e -> {
                errors.add(new PolicyError(hook, "failed to evaluate match condition \"" + e.condition() + "\": "
                        + e.message(), StatusReason.INVALID));
                yield false;
            }
        };
    }

    private Map<String, Object> activation(Attributes a, ObjectNode param) {
        Map<String, Object> vars = new HashMap<>(AdmissionCel.activation(a, context.authorizer(),
                AdmissionRequests.of(a, "")));
        vars.put("namespaceObject", AdmissionCel.value(namespaceObject(a).orElse(null)));
        vars.put("params", AdmissionCel.value(param == null ? NullNode.getInstance() : param));
        vars.put("variables", Map.of());
        return vars;
    }

    private Optional<ObjectNode> namespaceObject(Attributes a) {
        String ns = a.target().namespace();
        boolean isNamespace = a.target().kind().group().isEmpty() && a.target().kind().kind().equals("Namespace");
        return ns.isEmpty() || isNamespace ? Optional.empty() : context.lookup().get(NAMESPACES, "", ns);
    }

    private static Key key(Hook hook, ObjectNode param) {
        ObjectMeta meta = param == null ? null : ObjectMeta.of(param);
        return new Key(hook.policy().name(), hook.binding().name(), meta == null ? "" : meta.namespace(),
                meta == null ? "" : meta.name());
    }

    /**
     * kube's denial: {@code admission.NewForbidden}'s details with the first error's message (and its
     * reason when it has one: Invalid, with the Forbidden code) and every error as a cause.
     */
    private static ApiException denied(Attributes a, List<PolicyError> errors) {
        PolicyError first = errors.getFirst();
        StatusReason reason = first.reason() != null ? first.reason() : StatusReason.FORBIDDEN;
        Attributes.Target t = a.target();
        List<StatusCause> causes = errors.stream().map(e -> new StatusCause(null, e.text(), null)).toList();
        return new ApiException(reason, StatusReason.FORBIDDEN.code(), first.text(), new ApiException.Details(
                t.name().isEmpty() ? null : t.name(), t.resource().group().isEmpty() ? null : t.resource().group(),
                t.resource().resource(), causes, null));
    }
}
