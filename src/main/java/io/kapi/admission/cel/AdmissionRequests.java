package io.kapi.admission.cel;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;

/**
 * The {@code admission.k8s.io/v1} AdmissionRequest of a request: what webhooks receive and what CEL
 * expressions see as {@code request}.
 */
public final class AdmissionRequests {

    private AdmissionRequests() {
    }

    /** The request with {@code uid}; object and oldObject as the attributes hold them (null ones left out). */
    public static ObjectNode of(Attributes a, String uid) {
        ObjectNode r = Json.object();
        r.put("uid", uid);
        Attributes.Target t = a.target();
        ObjectNode kind = r.putObject("kind");
        kind.put("group", t.kind().group()).put("version", t.kind().version()).put("kind", t.kind().kind());
        ObjectNode resource = r.putObject("resource");
        resource.put("group", t.resource().group()).put("version", t.resource().version())
                .put("resource", t.resource().resource());
        if (!t.subresource().isEmpty()) {
            r.put("subResource", t.subresource());
        }
        r.set("requestKind", kind.deepCopy());
        r.set("requestResource", resource.deepCopy());
        if (!t.subresource().isEmpty()) {
            r.put("requestSubResource", t.subresource());
        }
        r.put("name", t.name());
        if (!t.namespace().isEmpty()) {
            r.put("namespace", t.namespace());
        }
        r.put("operation", a.operation().name());
        r.set("userInfo", userInfo(a.user()));
        if (a.object() != null) {
            r.set("object", a.object());
        }
        if (a.oldObject() != null) {
            r.set("oldObject", a.oldObject());
        }
        r.put("dryRun", a.dryRun());
        if (a.options() != null) {
            r.set("options", a.options());
        }
        return r;
    }

    /** kube's {@code authenticationv1.UserInfo}. */
    public static ObjectNode userInfo(UserInfo user) {
        ObjectNode u = Json.object();
        if (user == null) {
            return u;
        }
        u.put("username", user.name());
        if (!user.uid().isEmpty()) {
            u.put("uid", user.uid());
        }
        ArrayNode groups = u.putArray("groups");
        user.groups().forEach(groups::add);
        if (!user.extra().isEmpty()) {
            ObjectNode extra = u.putObject("extra");
            user.extra().forEach((k, v) -> {
                ArrayNode values = extra.putArray(k);
                v.forEach(values::add);
            });
        }
        return u;
    }
}
