package io.kapi.apis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import io.kapi.user.UserInfo;
import java.util.List;
import java.util.Map;

/**
 * CertificateSigningRequests, as kube-apiserver's {@code csrStrategy}: a new request records who made it
 * ({@code spec.username}, {@code uid}, {@code groups}, {@code extra}, whatever the body said, since signers
 * and approvers trust them); after creation the spec is immutable, an update of the main resource changes
 * neither spec nor status, and an update through {@code /status} does not change the conditions (only the
 * {@code approval} subresource does).
 */
public record CsrStrategy(Strategy base) implements StrategyDecorator {

    private static final List<String> REQUESTER = List.of("username", "uid", "groups", "extra");

    @Override
    public void prepareRequester(ObjectNode csr, UserInfo user) {
        base.prepareRequester(csr, user);
        ObjectNode spec = csr.with("spec");
        REQUESTER.forEach(spec::remove);
        if (!user.name().isEmpty()) {
            spec.put("username", user.name());
        }
        if (!user.uid().isEmpty()) {
            spec.put("uid", user.uid());
        }
        if (!user.groups().isEmpty()) {
            ArrayNode groups = spec.putArray("groups");
            user.groups().forEach(groups::add);
        }
        if (!user.extra().isEmpty()) {
            ObjectNode extra = spec.putObject("extra");
            for (Map.Entry<String, List<String>> e : user.extra().entrySet()) {
                ArrayNode values = extra.putArray(e.getKey());
                e.getValue().forEach(values::add);
            }
        }
    }

    @Override
    public void prepareForUpdate(ObjectNode csr, ObjectNode old) {
        base.prepareForUpdate(csr, old);
        keep(csr, old, "spec");
        keep(csr, old, "status");
    }

    @Override
    public void prepareForStatusUpdate(ObjectNode csr, ObjectNode old) {
        base.prepareForStatusUpdate(csr, old);
        JsonNode conditions = old.path("status").get("conditions");
        ObjectNode status = csr.with("status");
        if (conditions == null) {
            status.remove("conditions");
        } else {
            status.set("conditions", conditions.deepCopy());
        }
    }

    private static void keep(ObjectNode csr, ObjectNode old, String field) {
        JsonNode value = old.get(field);
        if (value == null) {
            csr.remove(field);
        } else {
            csr.set(field, value.deepCopy());
        }
    }
}
