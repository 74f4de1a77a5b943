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
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import io.kapi.registry.Write;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * {@code .../certificatesigningrequests/{name}/approval} (GET, PUT, PATCH): a write changes only
 * {@code status.conditions}, as kube-apiserver's {@code csrApprovalStrategy}, with its rules:
 * Approved, Denied and Failed must be {@code True}, Approved and Denied exclude each other, a type
 * appears once, and those three may be neither removed nor changed. {@code kubectl certificate
 * approve|deny} use it.
 */
public record CsrApproval(Codecs codecs, PatchSchemas schemas, Clock clock) implements VerbHandler {

    private static final List<String> FINAL_TYPES = List.of("Approved", "Denied", "Failed");

    @Override
    public RestResponse handle(ResourceRequest r) {
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), r.resource());
        return switch (r.info().verb()) {
            case GET -> response.object(200, r.store().get("", r.info().name()));
            case UPDATE -> {
                ObjectNode body = codecs.decoder().decode(r.http(), r.resource().gvk()).object();
                yield response.object(200, write(r, current -> body.deepCopy()));
            }
            case PATCH -> response.object(200, write(r, SubresourcePatch.of(r, schemas)));
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private ObjectNode write(ResourceRequest r, UnaryOperator<ObjectNode> change) {
        var result = r.store().update(r.context(), "", r.info().name(), current -> {
            if (current == null) {
                throw ApiException.notFound(r.resource().gvr(), r.info().name());
            }
            return change.apply(current);
        }, Write.subresource("approval", new ConditionsOnly(r.store().strategy(), clock)));
        return result.object();
    }

    /** Takes {@code status.conditions} from the body, the rest from the stored request. */
    record ConditionsOnly(Strategy base, Clock clock) implements StrategyDecorator {

        @Override
        public void applyDefaults(ObjectNode object) {
        }

        @Override
        public void prepareForUpdate(ObjectNode object, ObjectNode old) {
            JsonNode conditions = object.path("status").get("conditions");
            ObjectNode meta = object.with("metadata");
            ObjectNode merged = old.deepCopy();
            ObjectNode mergedMeta = merged.with("metadata");
            for (String field : List.of("resourceVersion", "name", "uid")) {
                if (meta.has(field)) {
                    mergedMeta.set(field, meta.get(field));
                }
            }
            ObjectNode status = merged.with("status");
            if (conditions == null || conditions.isNull()) {
                status.remove("conditions");
            } else {
                status.set("conditions", conditions.deepCopy());
            }
            object.removeAll();
            object.setAll(merged);
            stampConditions(status.path("conditions"), old.path("status").path("conditions"));
        }

        /** populateConditionTimestamps: lastUpdateTime now if unset, lastTransitionTime kept or now. */
        private void stampConditions(JsonNode conditions, JsonNode oldConditions) {
            String now = ObjectMeta.format(clock.instant());
            for (JsonNode c : conditions) {
                if (!(c instanceof ObjectNode condition)) {
                    continue;
                }
                if (condition.path("lastUpdateTime").asText("").isEmpty()) {
                    condition.put("lastUpdateTime", now);
                }
                if (condition.path("lastTransitionTime").asText("").isEmpty()) {
                    String kept = null;
                    for (JsonNode o : oldConditions) {
                        if (o.path("type").equals(c.path("type")) && o.path("status").equals(c.path("status"))) {
                            kept = o.path("lastTransitionTime").asText(null);
                        }
                    }
                    condition.put("lastTransitionTime", kept != null && !kept.isEmpty() ? kept : now);
                }
            }
        }

        @Override
        public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
            // the request's own rules (its conditions among them), then what only an approval may do
            List<FieldError> errors = new ArrayList<>(base().validateUpdate(object, old));
            for (String type : FINAL_TYPES) {
                List<JsonNode> before = ofType(old, type);
                List<JsonNode> after = ofType(object, type);
                if (after.size() < before.size()) {
                    errors.add(FieldError.forbidden("status.conditions",
                            "updates may not remove a condition of type \"%s\"".formatted(type)));
                } else if (!withoutTimes(before).equals(withoutTimes(after.subList(0, before.size())))) {
                    errors.add(FieldError.forbidden("status.conditions",
                            "updates may not modify a condition of type \"%s\"".formatted(type)));
                }
            }
            return errors;
        }
    }

    private static List<JsonNode> ofType(ObjectNode csr, String type) {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode c : csr.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                found.add(c);
            }
        }
        return found;
    }

    private static List<JsonNode> withoutTimes(List<JsonNode> conditions) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode c : conditions) {
            ObjectNode copy = ((ObjectNode) c).deepCopy();
            copy.remove("lastUpdateTime");
            copy.remove("lastTransitionTime");
            out.add(copy);
        }
        return out;
    }
}
