package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.ResponseWriter;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.Write;
import io.kapi.request.RequestContext;
import io.kapi.request.Verb;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST .../pods/{name}/binding} and the legacy {@code POST .../namespaces/{ns}/bindings}
 * (kube-apiserver's {@code BindingREST}): sets a pod's {@code spec.nodeName} once, merges the
 * binding's annotations into the pod and marks it {@code PodScheduled=True}. Answers 201 with a
 * Success Status; 409 when the pod is already bound, being deleted or held by scheduling gates;
 * 404 when it does not exist.
 *
 * @param pods the store of core/v1 pods
 */
public record PodBinding(Codecs codecs, ResourceStore pods, Clock clock) implements VerbHandler {

    static final GroupVersionKind BINDING = new GroupVersionKind("", "v1", "Binding");
    private static final GroupVersionResource PODS_BINDING = new GroupVersionResource("", "v1", "pods/binding");

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (r.info().verb() != Verb.CREATE) {
            throw ApiException.methodNotAllowed();
        }
        ResponseWriter.Negotiated response = codecs.writer().negotiatePlain(r.http());
        ObjectNode binding = codecs.decoder().decode(r.http(), BINDING).object();
        ObjectMeta meta = ObjectMeta.of(binding);
        boolean legacy = r.info().subresource().isEmpty();
        String name = legacy ? meta.name() : r.info().name();
        if (!meta.namespace().isEmpty() && !meta.namespace().equals(r.info().namespace())) {
            throw ApiException.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
        if (!name.equals(meta.name())) {
            throw Replies.nameMismatch("Binding");
        }
        validate(name, binding);
        bind(r.context(), r.info().namespace(), name, binding);
        return response.object(201, Replies.created());
    }

    /**
     * kube-apiserver's {@code ValidatePodBinding}. Its errors are not a Status there, so kube answers them
     * as a 500 with the aggregated field errors as message; the mistake is the client's, so Kapi answers
     * 422 Invalid with the same field errors.
     */
    private static void validate(String name, ObjectNode binding) {
        List<FieldError> errors = new ArrayList<>();
        String kind = binding.path("target").path("kind").asText("");
        if (!kind.isEmpty() && !kind.equals("Node")) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, "target.kind", GoStrings.quote(kind),
                    "supported values: \"Node\", \"<empty>\""));
        }
        if (binding.path("target").path("name").asText("").isEmpty()) {
            errors.add(FieldError.required("target.name", ""));
        }
        if (!errors.isEmpty()) {
            throw ApiException.invalid(BINDING, name, errors);
        }
    }

    private void bind(RequestContext ctx, String namespace, String name, ObjectNode binding) {
        String node = binding.path("target").path("name").asText();
        pods.update(ctx, namespace, name, pod -> {
            if (pod == null) {
                throw ApiException.notFound(pods.resource().gvr(), name);
            }
            checkBindable(pod, name);
            pod.with("spec").put("nodeName", node);
            JsonNode annotations = binding.path("metadata").path("annotations");
            if (annotations.isObject() && !annotations.isEmpty()) {
                ObjectNode podAnnotations = pod.with("metadata").with("annotations");
                annotations.properties().forEach(e -> podAnnotations.set(e.getKey(), e.getValue()));
            }
            markScheduled(pod);
            return pod;
        }, Write.subresource("binding", new TakeBody(pods.strategy())));
    }

    private static void checkBindable(ObjectNode pod, String name) {
        String why = null;
        String nodeName = pod.path("spec").path("nodeName").asText("");
        if (!ObjectMeta.of(pod).deletionTimestamp().isEmpty()) {
            why = "pod %s is being deleted, cannot be assigned to a host".formatted(name);
        } else if (!nodeName.isEmpty()) {
            why = "pod %s is already assigned to node %s".formatted(name, GoStrings.quote(nodeName));
        } else if (!pod.path("spec").path("schedulingGates").isEmpty()) {
            why = "pod %s has non-empty .spec.schedulingGates".formatted(name);
        }
        if (why != null) {
            throw ApiException.conflict(PODS_BINDING, name, why);
        }
    }

    /** podutil.UpdatePodCondition: PodScheduled=True, with a new transition time only when it changes. */
    private void markScheduled(ObjectNode pod) {
        ArrayNode conditions = pod.with("status").withArray("conditions");
        String now = ObjectMeta.format(clock.instant());
        for (JsonNode c : conditions) {
            if (c.path("type").asText().equals("PodScheduled")) {
                ObjectNode condition = (ObjectNode) c;
                if (!condition.path("status").asText().equals("True")) {
                    condition.put("lastTransitionTime", now);
                }
                condition.put("status", "True");
                condition.remove("reason");
                condition.remove("message");
                return;
            }
        }
        ObjectNode condition = conditions.addObject();
        condition.put("type", "PodScheduled");
        condition.put("status", "True");
        condition.putNull("lastProbeTime");
        condition.put("lastTransitionTime", now);
    }
}
