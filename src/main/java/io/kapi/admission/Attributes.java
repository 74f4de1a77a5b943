package io.kapi.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.request.RequestContext;
import io.kapi.user.UserInfo;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an admission plugin decides about, as kube's {@code admission.Attributes}.
 *
 * @param operation create, update, delete or connect
 * @param target the kind, resource, subresource, namespace and name written
 * @param object the object as it will be stored; mutating plugins may change it in place; null on delete
 * @param oldObject the stored object; null on create
 * @param user who asks
 * @param dryRun whether nothing will be persisted; plugins with side effects must not act then
 * @param options the operation's options as a {@code meta.k8s.io/v1} object (CreateOptions, UpdateOptions,
 *        PatchOptions, DeleteOptions)
 * @param request the request (audit ID, deadline, warnings for the client), or null for a write of the
 *        server's own without one
 * @param auditAnnotations what plugins add to the request's audit event ({@code <plugin or webhook>/<key>});
 *        thread-safe
 */
public record Attributes(Operation operation, Target target, ObjectNode object, ObjectNode oldObject,
                         UserInfo user, boolean dryRun, ObjectNode options, RequestContext request,
                         Map<String, String> auditAnnotations) {

    public Attributes(Operation operation, Target target, ObjectNode object, ObjectNode oldObject, UserInfo user,
                      boolean dryRun, ObjectNode options) {
        this(operation, target, object, oldObject, user, dryRun, options, null, new ConcurrentHashMap<>());
    }

    /** Adds a warning for the client (dropped for requests of the server's own). */
    public void warn(String warning) {
        if (request != null) {
            request.warnings().add(warning);
        }
    }

    /** The same request about another object (a webhook's patched one). */
    public Attributes withObject(ObjectNode newObject) {
        return new Attributes(operation, target, newObject, oldObject, user, dryRun, options, request,
                auditAnnotations);
    }

    /**
     * What is written.
     *
     * @param subresource "" for the main resource
     * @param name "" while a generated name is not chosen yet
     */
    public record Target(GroupVersionKind kind, GroupVersionResource resource, String subresource, String namespace,
                         String name) {
    }

    /**
     * kube's {@code admission.NewForbidden}: {@code <resource> "<name>" is forbidden: <why>}, to throw.
     */
    public io.kapi.machinery.ApiException forbidden(String why) {
        return io.kapi.machinery.ApiException.forbidden(target.resource(), target.name(), why, java.util.List.of());
    }

    /** Whether this is about {@code group/resource} itself (not one of its subresources). */
    public boolean isMain(String group, String resource) {
        return target.subresource().isEmpty() && target.resource().group().equals(group)
                && target.resource().resource().equals(resource);
    }
}
