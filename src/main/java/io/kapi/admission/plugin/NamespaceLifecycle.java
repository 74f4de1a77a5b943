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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * kube-apiserver's {@code NamespaceLifecycle}: the system namespaces cannot be deleted; anything
 * namespaced is written only into a namespace that exists (404 otherwise); nothing new is created in
 * a namespace being terminated (403 with cause {@code NamespaceTerminating}). Deletes of other
 * objects and access reviews always pass. As kube's, it reads namespaces from the watch cache and asks
 * storage only when the cache lacks the namespace, or for 30 s after this server admitted its delete
 * (while the cache may still show it active).
 */
public final class NamespaceLifecycle implements ValidatingPlugin {

    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    /** kube's immortal namespaces. */
    static final Set<String> IMMORTAL = Set.of("default", "kube-system", "kube-public");
    private static final Set<String> ACCESS_REVIEWS = Set.of("localsubjectaccessreviews");

    /** How long after a namespace's delete its lookups skip the cache, as kube's forceLiveLookupTTL. */
    private static final long LIVE_LOOKUP_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final ObjectLookup lookup;
    private final Map<String, Long> deleted = new ConcurrentHashMap<>();

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
            if (a.operation() == Operation.DELETE && t.resource().equals(NAMESPACES)) {
                if (IMMORTAL.contains(t.name())) {
                    throw ApiException.forbidden(NAMESPACES, t.name(), "this namespace may not be deleted", List.of());
                }
                long now = System.nanoTime();
                if (deleted.size() >= 1024) {
                    deleted.values().removeIf(until -> now - until >= 0);
                }
                deleted.put(t.name(), now + LIVE_LOOKUP_NANOS);
            }
            return;
        }
        if (a.operation() == Operation.DELETE || ACCESS_REVIEWS.contains(t.resource().resource())) {
            return;
        }
        Optional<Boolean> cached = lookup.readCached(NAMESPACES, "", t.namespace(), NamespaceLifecycle::terminating);
        boolean terminating;
        if (cached.isEmpty() || (!cached.get() && recentlyDeleted(t.namespace()))) {
            terminating = terminating(lookup.get(NAMESPACES, "", t.namespace())
                    .orElseThrow(() -> ApiException.notFound(NAMESPACES, t.namespace())));
        } else {
            terminating = cached.get();
        }
        if (a.operation() == Operation.CREATE && terminating) {
            String name = a.object() == null ? "Unknown" : nameOf(a.object());
            throw ApiException.forbidden(t.resource(), name, "unable to create new content in namespace "
                    + t.namespace() + " because it is being terminated", List.of(new StatusCause("NamespaceTerminating",
                    "namespace " + t.namespace() + " is being terminated", "metadata.namespace")));
        }
    }

    private static boolean terminating(ObjectNode namespace) {
        return namespace.path("status").path("phase").asText("").equals("Terminating")
                || namespace.path("metadata").hasNonNull("deletionTimestamp");
    }

    /** Whether a delete of {@code namespace} passed here lately (the cache may not show it terminating yet). */
    private boolean recentlyDeleted(String namespace) {
        Long until = deleted.get(namespace);
        if (until == null) {
            return false;
        }
        if (System.nanoTime() - until < 0) {
            return true;
        }
        deleted.remove(namespace, until);
        return false;
    }

    /** The name kube's admission errors use: the name, else the generate-name prefix. */
    private static String nameOf(ObjectNode object) {
        String name = object.path("metadata").path("name").asText("");
        return name.isEmpty() ? object.path("metadata").path("generateName").asText("Unknown") : name;
    }
}
