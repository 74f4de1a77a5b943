package io.kapi.machinery.cel;

/**
 * What kube's CEL authorization library asks (the {@code authorizer} variable of admission policies):
 * may the request's user, or a service account, do a verb on a path or a resource. The caller binds the
 * user and the server's authorizer; CEL builds the checks ({@code authorizer.group("apps")
 * .resource("deployments").namespace("ns").check("create").allowed()}).
 */
public interface CelAuthorizer {

    /** The decision on {@code check} for the bound user. */
    Decision authorize(Check check);

    /** The same authorizer for {@code system:serviceaccount:<namespace>:<name>}. */
    CelAuthorizer forServiceAccount(String namespace, String name);

    /**
     * One question: a non-resource {@code path}, or a resource (path null).
     *
     * @param subresource "" for none
     * @param namespace "" for cluster-wide
     * @param name "" for all
     */
    record Check(String path, String group, String resource, String subresource, String namespace, String name,
                 String verb) {
    }

    /**
     * @param decision {@code allow}, {@code deny} or {@code noOpinion}
     * @param reason the authorizer's reason, may be ""
     * @param error the evaluation error, "" for none
     */
    record Decision(String decision, String reason, String error) {
        public boolean allowed() {
            return decision.equals("allow");
        }
    }

    /** A resource check of the request's own resource ({@code authorizer.requestResource}). */
    static Object requestResource(CelAuthorizer authorizer, String group, String resource, String subresource,
                                  String namespace, String name) {
        return new AuthzLibrary.ResourceCheck(authorizer, group, resource, subresource, namespace, name);
    }
}
