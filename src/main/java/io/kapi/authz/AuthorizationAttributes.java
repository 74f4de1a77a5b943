package io.kapi.authz;

import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;

/**
 * What an authorizer decides about, as kube's {@code authorizer.Attributes}: who, which verb, and
 * either a resource (group, version, resource, subresource, namespace, name) or a non-resource path.
 *
 * @param user the authenticated user
 * @param verb the request's verb (or one only authorization asks about, such as {@code impersonate})
 * @param resourceRequest whether a resource is named; otherwise {@code path} is
 * @param name "" when the request names no object
 * @param fieldSelector the request's raw {@code fieldSelector}, "" when none (kube's {@code GetFieldSelector})
 */
public record AuthorizationAttributes(UserInfo user, Verb verb, boolean resourceRequest, String group,
                                      String version, String resource, String subresource, String namespace,
                                      String name, String path, String fieldSelector) {

    public AuthorizationAttributes {
        fieldSelector = fieldSelector == null ? "" : fieldSelector;
    }

    /** Attributes without a field selector. */
    public AuthorizationAttributes(UserInfo user, Verb verb, boolean resourceRequest, String group, String version,
                                   String resource, String subresource, String namespace, String name, String path) {
        this(user, verb, resourceRequest, group, version, resource, subresource, namespace, name, path, "");
    }

    /**
     * These attributes with the request's field selector; a list or watch whose selector pins
     * {@code metadata.name} to a valid path segment names that object, as kube's request info does (so
     * RBAC's resourceNames and the Node authorizer see the name of a single-object watch).
     */
    public AuthorizationAttributes withFieldSelector(String selector) {
        String raw = selector == null ? "" : selector;
        String named = name;
        if (named.isEmpty() && (verb == Verb.LIST || verb == Verb.WATCH) && !raw.isEmpty()) {
            String pinned = FieldRequirements.of(raw).pinned("metadata.name");
            if (pinned != null && !pinned.isEmpty() && !pinned.equals(".") && !pinned.equals("..")
                    && pinned.indexOf('/') < 0 && pinned.indexOf('%') < 0) {
                named = pinned;
            }
        }
        return new AuthorizationAttributes(user, verb, resourceRequest, group, version, resource, subresource,
                namespace, named, path, raw);
    }

    /** The field selector's requirements; none when it does not parse (the request itself fails later). */
    public io.kapi.registry.FieldSelector fieldRequirements() {
        return FieldRequirements.of(fieldSelector);
    }

    /** The attributes of the request a context describes. */
    public static AuthorizationAttributes of(RequestContext context) {
        RequestInfo info = context.info();
        return new AuthorizationAttributes(context.user(), info.verb(), info.resourceRequest(), info.group(),
                info.version(), info.resource(), info.subresource(), info.namespace(), info.name(), info.path());
    }

    /**
     * kube-apiserver's wording of a denial, e.g. {@code User "alice" cannot list resource "pods" in API
     * group "" in the namespace "x"}, or {@code User "bob" cannot get path "/metrics"}.
     */
    public String deniedMessage() {
        String who = user == null ? "" : user.name();
        String what = verb == null ? "" : verb.apiName();
        if (!resourceRequest) {
            return "User \"%s\" cannot %s path \"%s\"".formatted(who, what, path);
        }
        String res = subresource.isEmpty() ? resource : resource + "/" + subresource;
        if (!namespace.isEmpty()) {
            return "User \"%s\" cannot %s resource \"%s\" in API group \"%s\" in the namespace \"%s\""
                    .formatted(who, what, res, group, namespace);
        }
        return "User \"%s\" cannot %s resource \"%s\" in API group \"%s\" at the cluster scope"
                .formatted(who, what, res, group);
    }
}
