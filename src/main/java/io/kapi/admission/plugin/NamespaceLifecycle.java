package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.StatusCause;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube-apiserver's {@code NamespaceLifecycle}: the system namespaces cannot be deleted; anything
 * namespaced is written only into a namespace that exists (404 otherwise); nothing new is created in
 * a namespace being terminated (403 with cause {@code NamespaceTerminating}). Deletes of other
 * objects and access reviews always pass.
 */
public final class NamespaceLifecycle implements ValidatingPlugin {

    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    /** kube's immortal namespaces. */
    static final Set<String> IMMORTAL = Set.of("default", "kube-system", "kube-public");
    private static final Set<String> ACCESS_REVIEWS = Set.of("localsubjectaccessreviews");

    private final ObjectLookup lookup;

    public NamespaceLifecycle(ObjectLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public String name() {
        return "NamespaceLifecycle";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation != Operation.CONNECT;
    }

    @Override
    public void validate(Attributes a) {
        Attributes.Target t = a.target();
        if (t.namespace().isEmpty() || t.resource().equals(NAMESPACES)) {
            if (a.operation() == Operation.DELETE && t.resource().equals(NAMESPACES) && IMMORTAL.contains(t.name())) {
                throw ApiException.forbidden(NAMESPACES, t.name(), "this namespace may not be deleted", List.of());
            }
            return;
        }
        if (a.operation() == Operation.DELETE || ACCESS_REVIEWS.contains(t.resource().resource())) {
            return;
        }
        Optional<ObjectNode> namespace = lookup.get(NAMESPACES, "", t.namespace());
        if (namespace.isEmpty()) {
            throw ApiException.notFound(NAMESPACES, t.namespace());
        }
        boolean terminating = namespace.get().path("status").path("phase").asText("").equals("Terminating")
                || namespace.get().path("metadata").hasNonNull("deletionTimestamp");
        if (a.operation() == Operation.CREATE && terminating) {
            String name = a.object() == null ? "Unknown" : nameOf(a.object());
            throw ApiException.forbidden(t.resource(), name, "unable to create new content in namespace "
                    + t.namespace() + " because it is being terminated", List.of(new StatusCause("NamespaceTerminating",
                    "namespace " + t.namespace() + " is being terminated", "metadata.namespace")));
        }
    }

    /** The name kube's admission errors use: the name, else the generate-name prefix. */
    private static String nameOf(ObjectNode object) {
        String name = object.path("metadata").path("name").asText("");
        return name.isEmpty() ? object.path("metadata").path("generateName").asText("Unknown") : name;
    }
}
