package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.registry.ListResult;
import io.kapi.request.Verb;
import io.kapi.webhook.CallErrors;
import io.kapi.webhook.WebhookTrust;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * {@code /api/v1/componentstatuses} (deprecated since 1.19 and still served by kube-apiserver 1.34): each
 * request probes the components kube's componentstatus REST knows, all at once: {@code scheduler} and
 * {@code controller-manager} by an HTTPS {@code GET /healthz} on 127.0.0.1:10259 and :10257 (their
 * certificates not checked, 20 s at most), and the storage as {@code etcd-0} through its health check.
 * A component answers {@code Healthy=True} with the body it sent ({@code ok}); one that cannot be reached
 * {@code False} with Go's words for the failure as its message. Only {@code get} and {@code list}.
 */
public final class ComponentStatuses implements VerbHandler {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(20);

    private final Codecs codecs;
    private final Map<String, Callable<ObjectNode>> components = new LinkedHashMap<>();

    /** @param storageHealthy the storage's health, reported as {@code etcd-0} */
    public ComponentStatuses(Codecs codecs, BooleanSupplier storageHealthy) {
        this.codecs = codecs;
        components.put("scheduler", () -> probe("scheduler", URI.create("https://127.0.0.1:10259/healthz")));
        components.put("controller-manager",
                () -> probe("controller-manager", URI.create("https://127.0.0.1:10257/healthz")));
        components.put("etcd-0", () -> storageHealthy.getAsBoolean() ? status("etcd-0", "True", "ok", "")
                : status("etcd-0", "False", "", "storage backend is not healthy"));
    }

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (!r.info().subresource().isEmpty()) {
            throw ApiException.pathNotFound();
        }
        if (r.info().verb() == Verb.GET) {
            Callable<ObjectNode> component = components.get(r.info().name());
            if (component == null) {
                throw ApiException.notFound(r.resource().gvr(), r.info().name());
            }
            return codecs.writer().object(r.http(), r.resource(), 200, typed(r, all(Map.of(r.info().name(), component))
                    .getFirst()));
        }
        if (r.info().verb() == Verb.LIST) {
            return codecs.writer().list(r.http(), r.resource(), new ListResult(all(components), "", null, null), false);
        }
        throw ApiException.methodNotAllowed();
    }

    private static ObjectNode typed(ResourceRequest r, ObjectNode status) {
        ObjectNode typed = Json.object();
        typed.put("kind", r.resource().kind());
        typed.put("apiVersion", r.resource().gvk().apiVersion());
        typed.setAll(status);
        return typed;
    }

    /** The statuses of {@code probes}, probed at once on virtual threads, in their order. */
    private static List<ObjectNode> all(Map<String, Callable<ObjectNode>> probes) {
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<ObjectNode>> running = new ArrayList<>();
            probes.values().forEach(p -> running.add(executor.submit(p)));
            List<ObjectNode> out = new ArrayList<>();
            for (Future<ObjectNode> f : running) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while probing components", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("component probe failed: " + e.getCause(), e.getCause());
        }
    }

    /** One probe, with a client of its own that is gone when it returns (no thread outlives a request). */
    private static ObjectNode probe(String name, URI url) {
        HttpRequest request = HttpRequest.newBuilder(url).timeout(PROBE_TIMEOUT).GET().build();
        try (HttpClient client = HttpClient.newBuilder().sslContext(WebhookTrust.insecure(null))
                .connectTimeout(PROBE_TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build()) {
            HttpResponse<byte[]> answer = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            String body = new String(answer.body(), StandardCharsets.UTF_8);
            return answer.statusCode() >= 200 && answer.statusCode() < 400 ? status(name, "True", body, "")
                    : status(name, "False", "HTTP probe failed with statuscode: " + answer.statusCode(), "");
        } catch (HttpTimeoutException e) {
            return status(name, "False", "Get \"" + url + "\": context deadline exceeded", "");
        } catch (IOException e) {
            return status(name, "False", "Get \"" + url + "\": " + CallErrors.describe(e, url), "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return status(name, "Unknown", "", "context canceled");
        }
    }

    /** A ComponentStatus as kube's componentstatus REST writes it: one Healthy condition. */
    private static ObjectNode status(String name, String healthy, String message, String error) {
        ObjectNode cs = Json.object();
        cs.putObject("metadata").put("name", name).putNull("creationTimestamp");
        ObjectNode condition = cs.putArray("conditions").addObject();
        condition.put("type", "Healthy");
        condition.put("status", healthy);
        if (!message.isEmpty()) {
            condition.put("message", message);
        }
        if (!error.isEmpty()) {
            condition.put("error", error);
        }
        return cs;
    }
}
