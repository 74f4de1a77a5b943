package io.kapi.admission.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.ConfigurationExemption;
import io.kapi.admission.Operation;
import io.kapi.admission.ReinvocablePlugin;
import io.kapi.admission.Reinvocation;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.patch.PatchType;
import io.kapi.machinery.patch.Patches;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * kube-apiserver's {@code MutatingAdmissionWebhook}: matching webhooks of every
 * MutatingWebhookConfiguration are called one after the other, each seeing the object as the ones before
 * left it; a JSONPatch response is applied to the object. A webhook with {@code reinvocationPolicy:
 * IfNeeded} is called once more, in the chain's second pass, when a later webhook (or, in that pass,
 * another plugin) changed the object after it ran, as kube's dispatcher decides it. Writes of admission
 * configuration are never sent ({@link ConfigurationExemption}).
 */
public final class MutatingAdmissionWebhook implements ReinvocablePlugin {

    /** What the passes of one request share: kube's {@code webhookReinvokeContext}. */
    private static final class State {
        ObjectNode lastOutput;
        final java.util.Set<String> invokedReinvocable = new java.util.LinkedHashSet<>();
        final java.util.Set<String> reinvoke = new java.util.HashSet<>();

        void requireReinvokingPreviouslyInvoked() {
            reinvoke.addAll(invokedReinvocable);
            invokedReinvocable.clear();
        }
    }

    static final GroupVersionResource CONFIGURATIONS =
            new GroupVersionResource("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations");

    private final WebhookSource source;
    private final WebhookDispatch dispatch;

    public MutatingAdmissionWebhook(PluginContext context) {
        this.source = new WebhookSource(context.live().watch(CONFIGURATIONS));
        this.dispatch = new WebhookDispatch(context, "mutating");
    }

    @Override
    public String name() {
        return "MutatingAdmissionWebhook";
    }

    @Override
    public boolean handles(Operation operation) {
        return true;
    }

    @Override
    public void admit(Attributes a, Reinvocation reinvocation) {
        List<Webhook> hooks = source.hooks();
        if (hooks.isEmpty() || ConfigurationExemption.fromWebhooks(a)) {
            return;
        }
        State state = reinvocation.state(name(), State::new);
        if (reinvocation.isReinvoke() && !java.util.Objects.equals(state.lastOutput, a.object())) {
            state.requireReinvokingPreviouslyInvoked();
        }
        long start = System.nanoTime();
        try {
            for (Webhook hook : hooks) {
                String uid = hook.configuration() + "/" + hook.index();
                if (!dispatch.applies(hook, a) || reinvocation.isReinvoke() && !state.reinvoke.contains(uid)) {
                    continue;
                }
                if (callAndPatch(hook, a, reinvocation.isReinvoke() ? 1 : 0)) {
                    state.requireReinvokingPreviouslyInvoked();
                    reinvocation.requestReinvoke();
                }
                if (hook.reinvokeIfNeeded()) {
                    state.invokedReinvocable.add(uid);
                }
            }
        } finally {
            state.lastOutput = a.object() == null ? null : a.object().deepCopy();
            WebhookDispatch.excludeFromSli(a, start);
        }
    }

    /**
     * Calls the webhook and applies its patch, recording both in the audit event as kube does: whether it
     * mutated ({@code mutation.webhook.admission.k8s.io/round_<r>_index_<i>}) and the patch it returned
     * ({@code patch.webhook.admission.k8s.io/...}, kept at level Request and above).
     *
     * @return whether the webhook's patch changed the object
     */
    private boolean callAndPatch(Webhook hook, Attributes a, int round) {
        Optional<ObjectNode> response = dispatch.call(hook, a);
        if (response.isEmpty()) {
            return false;
        }
        boolean mutated = patch(hook, a, response.get());
        String key = "round_" + round + "_index_" + hook.index();
        ObjectNode mutation = io.kapi.machinery.Json.object().put("configuration", hook.configuration())
                .put("webhook", hook.name()).put("mutated", mutated);
        a.auditAnnotations().put("mutation.webhook.admission.k8s.io/" + key, mutation.toString());
        if (response.get().hasNonNull("patch") && a.object() != null) {
            ObjectNode patch = io.kapi.machinery.Json.object().put("configuration", hook.configuration())
                    .put("webhook", hook.name());
            try {
                patch.set("patch", io.kapi.machinery.Json.MAPPER.readTree(
                        Base64.getDecoder().decode(response.get().get("patch").asText())));
            } catch (java.io.IOException | IllegalArgumentException e) {
                // applied already, so it parsed: never here
            }
            patch.put("patchType", "JSONPatch");
            a.auditAnnotations().put("patch.webhook.admission.k8s.io/" + key, patch.toString());
        }
        return mutated;
    }

    private static boolean patch(Webhook hook, Attributes a, ObjectNode answer) {
        Optional<ObjectNode> response = Optional.of(answer); // the webhook's AdmissionResponse
        if (!response.get().hasNonNull("patch") || a.object() == null) {
            return false;
        }
        String patchType = response.get().path("patchType").asText("");
        if (!patchType.equals("JSONPatch")) {
            throw ApiException.internal("received invalid webhook response: unsupported patch type \"" + patchType
                    + "\"");
        }
        byte[] patch;
        try {
            patch = Base64.getDecoder().decode(response.get().get("patch").asText());
        } catch (IllegalArgumentException e) {
            throw ApiException.internal("received invalid webhook response: illegal base64 data in patch");
        }
        ObjectNode patched;
        try {
            patched = Patches.apply(PatchType.JSON, a.object(), patch, null);
        } catch (ApiException e) {
            throw ApiException.internal("failed calling webhook \"" + hook.name() + "\": " + e.getMessage());
        }
        if (patched.equals(a.object())) {
            return false;
        }
        a.object().removeAll();
        a.object().setAll(patched);
        return true;
    }
}
