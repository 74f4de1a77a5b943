package io.kapi.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.authn.UserInfo;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;

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
 */
public record Attributes(Operation operation, Target target, ObjectNode object, ObjectNode oldObject,
                         UserInfo user, boolean dryRun, ObjectNode options) {

    /**
     * What is written.
     *
     * @param subresource "" for the main resource
     * @param name "" while a generated name is not chosen yet
     */
    public record Target(GroupVersionKind kind, GroupVersionResource resource, String subresource, String namespace,
                         String name) {
    }

    /** Whether this is about {@code group/resource} itself (not one of its subresources). */
    public boolean isMain(String group, String resource) {
        return target.subresource().isEmpty() && target.resource().group().equals(group)
                && target.resource().resource().equals(resource);
    }
}
