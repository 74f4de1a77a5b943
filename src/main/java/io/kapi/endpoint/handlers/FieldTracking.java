package io.kapi.endpoint.handlers;

import io.kapi.machinery.apply.FieldManager;
import io.kapi.machinery.apply.FieldManagers;
import java.time.Clock;

/**
 * The handlers' side of field management: the {@code fieldManager} option's rules (the store records
 * managed fields of ordinary writes itself) and the field managers server-side apply merges with.
 */
public record FieldTracking(FieldManagers managers, Clock clock) {

    /**
     * The manager of a request: the {@code fieldManager} option (required for apply), else derived from
     * the User-Agent, as kube-apiserver does; 422 for an invalid {@code fieldManager}.
     */
    String manager(ResourceRequest r, String optionsKind, boolean apply) {
        String given = r.context().fieldManager();
        FieldManagers.validateFieldManager(optionsKind, given, apply);
        return apply ? given : FieldManagers.managerOrUserAgent(given, r.context().userAgent());
    }

    /** The field manager of the request's resource: a custom resource's own, else the built-in kind's. */
    FieldManager forKind(ResourceRequest r) {
        var custom = r.store() == null ? null : r.store().definition().custom();
        return custom != null ? custom.schema().fieldManager() : managers.forKind(r.resource().gvk());
    }
}
