package io.kapi.admission.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.resource.ApiResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The parameter objects a binding gives its policy, as kube resolves them: none needed (one evaluation
 * with {@code params} null), the object {@code paramRef.name} names, or every object
 * {@code paramRef.selector} picks, in {@code paramRef.namespace} or the request's for a namespaced kind.
 * What cannot be resolved is an error worded as kube's, which the failure policy decides about.
 */
final class PolicyParams {

    /**
     * The parameters to evaluate with (a null element: none), or why there are none.
     *
     * @param error null when resolved
     */
    record Resolved(List<ObjectNode> objects, String error) {

        static Resolved of(List<ObjectNode> objects) {
            return new Resolved(objects, null);
        }

        static Resolved failed(String error) {
            return new Resolved(List.of(), error);
        }
    }

    private static final Resolved WITHOUT = Resolved.of(Collections.singletonList(null));

    private final PluginContext context;

    PolicyParams(PluginContext context) {
        this.context = context;
    }

    /** @param paramKind the policy's, or null when it has none */
    Resolved resolve(io.kapi.machinery.GroupVersionKind paramKind, PolicyBinding binding, Attributes a) {
        if (paramKind == null) {
            return WITHOUT;
        }
        PolicyBinding.ParamRef ref = binding.paramRef();
        if (ref == null) {
            return Resolved.failed("failed to configure binding: paramRef is required when paramKind is set");
        }
        Optional<ApiResource> kind = context.kinds().apply(paramKind);
        if (kind.isEmpty()) {
            return Resolved.failed("failed to configure policy: failed to find resource referenced by paramKind: '"
                    + paramKind.apiVersion() + ", Kind=" + paramKind.kind() + "'");
        }
        String namespace = "";
        if (kind.get().namespaced()) {
            namespace = !ref.namespace().isEmpty() ? ref.namespace() : a.target().namespace();
            if (namespace.isEmpty()) {
                return Resolved.failed("failed to configure binding: cannot use namespaced paramRef in policy "
                        + "binding that matches cluster-scoped resources");
            }
        }
        List<ObjectNode> found = find(kind.get(), namespace, ref);
        if (!found.isEmpty()) {
            return Resolved.of(found);
        }
        return ref.denyWhenMissing()
                ? Resolved.failed("failed to configure binding: no params found for policy binding with `Deny` "
                        + "parameterNotFoundAction")
                : Resolved.of(List.of());
    }

    private List<ObjectNode> find(ApiResource kind, String namespace, PolicyBinding.ParamRef ref) {
        if (ref.selector() == null) {
            return context.lookup().get(kind.gvr(), namespace, ref.name()).map(List::of).orElse(List.of());
        }
        List<ObjectNode> picked = new ArrayList<>();
        for (ObjectNode o : context.lookup().list(kind.gvr(), namespace)) {
            if (ref.selector().matches(ObjectMeta.of(o).labels())) {
                picked.add(o);
            }
        }
        return picked;
    }
}
