package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An object's {@code apiVersion} and {@code kind} against what an endpoint expects, as kube-apiserver's
 * decoding with a default kind: absent fields are filled, different ones refused with kube's wording.
 */
public final class TypeMeta {

    private TypeMeta() {
    }

    /** @throws ApiException 400 BadRequest when the object names another version or kind */
    public static void checkAndFill(ObjectNode object, GroupVersionKind expected) {
        JsonNode apiVersion = object.get("apiVersion");
        JsonNode kind = object.get("kind");
        if (apiVersion != null && !apiVersion.isNull() && !apiVersion.asText().isEmpty()) {
            GroupVersion gv = GroupVersion.parse(apiVersion.asText());
            if (!gv.equals(expected.groupVersion())) {
                throw ApiException.badRequest("the API version in the data (%s) does not match the expected API version (%s)"
                        .formatted(gv.apiVersion(), expected.apiVersion()));
            }
        }
        if (kind != null && !kind.isNull() && !kind.asText().isEmpty() && !kind.asText().equals(expected.kind())) {
            throw ApiException.badRequest("%s in version \"%s\" cannot be handled as a %s: the kind in the data (%s) does not match the expected kind (%s)"
                    .formatted(kind.asText(), expected.version(), expected.kind(), kind.asText(), expected.kind()));
        }
        object.put("apiVersion", expected.apiVersion());
        object.put("kind", expected.kind());
    }
}
