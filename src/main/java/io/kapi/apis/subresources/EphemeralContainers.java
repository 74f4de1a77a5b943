package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.ResponseWriter;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import io.kapi.registry.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code .../pods/{name}/ephemeralcontainers} (GET, PUT, PATCH), as kube-apiserver's
 * {@code podEphemeralContainersStrategy}: the body is a Pod of which only
 * {@code spec.ephemeralContainers} is taken; existing ephemeral containers may be neither removed nor
 * changed, and new ones follow the ephemeral container rules (no ports, probes, lifecycle or
 * resources; names unique among all containers). {@code kubectl debug} patches it.
 */
public record EphemeralContainers(Codecs codecs, PatchSchemas schemas) implements VerbHandler {

    private static final List<String> FORBIDDEN_FIELDS =
            List.of("ports", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "resources");

    @Override
    public RestResponse handle(ResourceRequest r) {
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), r.resource());
        String ns = r.info().namespace();
        String name = r.info().name();
        return switch (r.info().verb()) {
            case GET -> response.object(200, r.store().get(ns, name));
            case UPDATE -> {
                ObjectNode body = codecs.decoder().decode(r.http(), r.resource().gvk()).object();
                yield response.object(200, write(r, current -> body.deepCopy()));
            }
            case PATCH -> response.object(200, write(r, SubresourcePatch.of(r, schemas)));
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private ObjectNode write(ResourceRequest r, java.util.function.UnaryOperator<ObjectNode> change) {
        var result = r.store().update(r.context(), r.info().namespace(), r.info().name(), current -> {
            if (current == null) {
                throw ApiException.notFound(r.resource().gvr(), r.info().name());
            }
            return change.apply(current);
        }, Write.subresource("ephemeralcontainers", new EphemeralOnly(r.store().strategy())));
        return result.object();
    }

    /** Takes {@code spec.ephemeralContainers} (defaulted) from the body, the rest from the stored pod. */
    record EphemeralOnly(Strategy base) implements StrategyDecorator {

        @Override
        public void applyDefaults(ObjectNode object) {
        }

        @Override
        public void prepareForUpdate(ObjectNode object, ObjectNode old) {
            JsonNode ephemeral = object.path("spec").get("ephemeralContainers");
            ObjectNode meta = object.with("metadata");
            ObjectNode merged = old.deepCopy();
            for (String field : List.of("resourceVersion", "name", "namespace", "uid")) {
                if (meta.has(field)) {
                    merged.with("metadata").set(field, meta.get(field));
                }
            }
            ObjectNode spec = merged.with("spec");
            if (ephemeral == null || ephemeral.isNull() || ephemeral.isEmpty()) {
                spec.remove("ephemeralContainers");
            } else {
                ephemeral.forEach(c -> {
                    if (c instanceof ObjectNode container) {
                        defaults(container);
                    }
                });
                spec.set("ephemeralContainers", ephemeral.deepCopy());
            }
            if (!spec.path("ephemeralContainers").equals(old.path("spec").path("ephemeralContainers"))
                    && merged.path("metadata").has("generation")) {
                merged.with("metadata").put("generation", merged.path("metadata").path("generation").asLong() + 1);
            }
            object.removeAll();
            object.setAll(merged);
        }

        @Override
        public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
            List<FieldError> errors = new ArrayList<>();
            if (old.path("metadata").path("annotations").has("kubernetes.io/config.mirror")) {
                return List.of(FieldError.forbidden("", "static pods do not support ephemeral containers"));
            }
            JsonNode now = object.path("spec").path("ephemeralContainers");
            Map<String, JsonNode> byName = new HashMap<>();
            now.forEach(c -> byName.put(c.path("name").asText(), c));
            for (JsonNode before : old.path("spec").path("ephemeralContainers")) {
                JsonNode after = byName.get(before.path("name").asText());
                if (after == null) {
                    errors.add(FieldError.forbidden("spec.ephemeralContainers", "existing ephemeral containers %s may not be removed\n"
                            .formatted(GoStrings.quote(before.path("name").asText()))));
                } else if (!after.equals(before)) {
                    errors.add(FieldError.forbidden("spec.ephemeralContainers", "existing ephemeral containers %s may not be changed\n"
                            .formatted(GoStrings.quote(before.path("name").asText()))));
                }
            }
            errors.addAll(validateNew(object.path("spec")));
            return errors;
        }
    }

    /** The rules every ephemeral container follows. */
    static List<FieldError> validateNew(JsonNode spec) {
        List<FieldError> errors = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String list : List.of("containers", "initContainers")) {
            spec.path(list).forEach(c -> names.add(c.path("name").asText()));
        }
        int i = 0;
        for (JsonNode c : spec.path("ephemeralContainers")) {
            String path = "spec.ephemeralContainers[" + i++ + "]";
            String name = c.path("name").asText("");
            if (name.isEmpty()) {
                errors.add(FieldError.required(path + ".name", ""));
            } else if (!names.add(name)) {
                errors.add(new FieldError(FieldError.Type.DUPLICATE, path + ".name", GoStrings.quote(name), null));
            }
            if (c.path("image").asText("").isEmpty()) {
                errors.add(FieldError.required(path + ".image", ""));
            }
            for (String field : FORBIDDEN_FIELDS) {
                JsonNode v = c.get(field);
                if (v != null && !v.isNull() && !(v.isContainerNode() && v.isEmpty())) {
                    errors.add(FieldError.forbidden(path + "." + field, "cannot be set for an Ephemeral Container"));
                }
            }
        }
        return errors;
    }

    /** The container defaults kube-apiserver fills in on decode. */
    static void defaults(ObjectNode c) {
        if (!c.has("terminationMessagePath")) {
            c.put("terminationMessagePath", "/dev/termination-log");
        }
        if (!c.has("terminationMessagePolicy")) {
            c.put("terminationMessagePolicy", "File");
        }
        if (!c.has("imagePullPolicy")) {
            String image = c.path("image").asText("");
            String lastPart = image.substring(image.lastIndexOf('/') + 1);
            boolean latest = !image.contains("@") && (!lastPart.contains(":") || lastPart.endsWith(":latest"));
            c.put("imagePullPolicy", latest ? "Always" : "IfNotPresent");
        }
    }
}
