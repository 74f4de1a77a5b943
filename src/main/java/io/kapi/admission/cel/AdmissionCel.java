package io.kapi.admission.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.authz.Authorizer;
import io.kapi.machinery.cel.CelAuthorizer;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelValues;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The CEL environments of admission, as kube declares them: webhook match conditions see {@code object},
 * {@code oldObject}, {@code request} and {@code authorizer}; admission policies also {@code params},
 * {@code namespaceObject} and {@code variables}. Objects are {@code dyn} (JSON as it is). Built once.
 */
public final class AdmissionCel {

    private static final CelEnvironment CONDITIONS = CelEnvironment.builder().dynamic("object").dynamic("oldObject")
            .map("request").authorizer().build();
    private static final CelEnvironment POLICIES = CelEnvironment.builder().dynamic("object").dynamic("oldObject")
            .map("request").dynamic("params").dynamic("namespaceObject").map("variables").authorizer().build();

    private static final CelEnvironment MUTATIONS = CelEnvironment.builder().dynamic("object").dynamic("oldObject")
            .map("request").dynamic("params").dynamic("namespaceObject").map("variables").authorizer()
            .objectConstruction().build();

    private AdmissionCel() {
    }

    /**
     * The environment of mutating admission policies' mutations: the policies' variables, and CEL type
     * construction of {@code Object{...}} and {@code JSONPatch{...}} values.
     */
    public static CelEnvironment mutations() {
        return MUTATIONS;
    }

    /** The environment of webhook match conditions. */
    public static CelEnvironment conditions() {
        return CONDITIONS;
    }

    /** The environment of validating and mutating admission policies. */
    public static CelEnvironment policies() {
        return POLICIES;
    }

    /**
     * The variables of one request: {@code object}, {@code oldObject} (CEL null when absent), {@code request}
     * and the authorizer for the request's user.
     */
    public static Map<String, Object> activation(Attributes a, Supplier<Authorizer> authorizer, ObjectNode request) {
        Map<String, Object> vars = new HashMap<>();
        vars.put("object", value(a.object()));
        vars.put("oldObject", value(a.oldObject()));
        vars.put("request", CelValues.of(request));
        ServerAuthorizer authz = new ServerAuthorizer(authorizer.get(), a.user());
        vars.put("authorizer", authz);
        Attributes.Target t = a.target();
        vars.put("authorizer.requestResource", CelAuthorizer.requestResource(authz, t.resource().group(),
                t.resource().resource(), t.subresource(), t.namespace(), t.name()));
        return vars;
    }

    /** The CEL value of an object that may be absent (CEL null then). */
    public static Object value(JsonNode object) {
        return CelValues.of(object == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : object);
    }
}
