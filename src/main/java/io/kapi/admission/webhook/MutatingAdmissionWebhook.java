package io.kapi.admission.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.Operation;
import io.kapi.admission.PluginContext;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.patch.PatchType;
import io.kapi.machinery.patch.Patches;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * kube-apiserver's {@code MutatingAdmissionWebhook}: matching webhooks of every
 * MutatingWebhookConfiguration are called one after the other, each seeing the object as the ones before
 * left it; a JSONPatch response is applied to the object. A webhook with {@code reinvocationPolicy:
 * IfNeeded} is called once more when a later webhook changed the object after it ran.
 */
public final class MutatingAdmissionWebhook implements MutatingPlugin {

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
    public void admit(Attributes a) {
        List<Webhook> hooks = source.hooks();
        if (hooks.isEmpty()) {
            return;
        }
        List<Webhook> reinvoke = new ArrayList<>();
        List<Webhook> ranBeforeChange = new ArrayList<>();
        for (Webhook hook : hooks) {
            if (!dispatch.applies(hook, a)) {
                continue;
            }
            boolean changed = callAndPatch(hook, a);
            if (changed) {
                reinvoke.addAll(ranBeforeChange);
                ranBeforeChange.clear();
            }
            if (hook.reinvokeIfNeeded()) {
                ranBeforeChange.add(hook);
            }
        }
        for (Webhook hook : reinvoke.stream().distinct().toList()) {
            if (dispatch.applies(hook, a)) {
                callAndPatch(hook, a);
            }
        }
    }

    /** @return whether the webhook's patch changed the object */
    private boolean callAndPatch(Webhook hook, Attributes a) {
        Optional<ObjectNode> response = dispatch.call(hook, a);
        if (response.isEmpty() || !response.get().hasNonNull("patch") || a.object() == null) {
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
