package io.kapi.admission.webhook;

import io.kapi.admission.Attributes;
import io.kapi.admission.ConfigurationExemption;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.tracing.Tracing;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * kube-apiserver's {@code ValidatingAdmissionWebhook}: every matching webhook of every
 * ValidatingWebhookConfiguration (picked up live) is called, in parallel, on virtual threads; the first
 * refusal in webhook order is the answer. Writes of admission configuration are never sent
 * ({@link ConfigurationExemption}).
 */
public final class ValidatingAdmissionWebhook implements ValidatingPlugin {

    static final GroupVersionResource CONFIGURATIONS =
            new GroupVersionResource("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations");

    private final WebhookSource source;
    private final WebhookDispatch dispatch;

    public ValidatingAdmissionWebhook(PluginContext context) {
        this.source = new WebhookSource(context.live().watch(CONFIGURATIONS));
        this.dispatch = new WebhookDispatch(context, "validating");
    }

    @Override
    public String name() {
        return "ValidatingAdmissionWebhook";
    }

    @Override
    public boolean handles(Operation operation) {
        return true;
    }

    @Override
    public void validate(Attributes a) {
        List<Webhook> hooks = source.hooks();
        if (hooks.isEmpty() || ConfigurationExemption.fromWebhooks(a)) {
            return;
        }
        long start = System.nanoTime();
        try {
            List<Webhook> relevant = new ArrayList<>();
            for (Webhook hook : hooks) {
                if (dispatch.applies(hook, a)) {
                    relevant.add(hook);
                }
            }
            if (relevant.size() == 1) {
                dispatch.call(relevant.getFirst(), a);
                return;
            }
            callInParallel(relevant, a);
        } finally {
            WebhookDispatch.excludeFromSli(a, start); // the calls run in parallel: their wall time, as kube's tracker
        }
    }

    private void callInParallel(List<Webhook> relevant, Attributes a) {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> calls = new ArrayList<>();
            for (Webhook hook : relevant) {
                calls.add(threads.submit(Tracing.inCurrentSpan(() -> dispatch.call(hook, a))));
            }
            for (Future<?> call : calls) {
                try {
                    call.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof ApiException api) {
                        throw api;
                    }
                    throw ApiException.internal(String.valueOf(e.getCause()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw ApiException.internal("admission webhooks interrupted");
                }
            }
        }
    }
}
