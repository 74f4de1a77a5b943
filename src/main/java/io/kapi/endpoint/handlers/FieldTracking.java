package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.apply.FieldManager;
import io.kapi.machinery.apply.FieldManagers;
import java.time.Clock;

/**
 * Records {@code metadata.managedFields} for writes that are not server-side apply: the manager is
 * the {@code fieldManager} parameter, else derived from the User-Agent, as kube-apiserver does.
 */
public record FieldTracking(FieldManagers managers, Clock clock) {

    /** The manager of a request; 422 for an invalid {@code fieldManager}. */
    String manager(ResourceRequest r, String optionsKind, boolean apply) {
        String given = r.http().param("fieldManager");
        FieldManagers.validateFieldManager(optionsKind, given, apply);
        return apply ? given : FieldManagers.managerOrUserAgent(given, r.http().header("User-Agent"));
    }

    FieldManager forKind(ResourceRequest r) {
        return managers.forKind(r.resource().gvk());
    }

    /**
     * Defaults {@code object} (the store defaults again, idempotently) and records its changes from
     * {@code old} (null on create) as owned by the request's manager.
     */
    ObjectNode recordUpdate(ResourceRequest r, ObjectNode old, ObjectNode object, String optionsKind) {
        String manager = manager(r, optionsKind, false);
        r.store().strategy().applyDefaults(object);
        return forKind(r).recordUpdate(old, object, manager, r.info().subresource(), clock.instant());
    }
}
