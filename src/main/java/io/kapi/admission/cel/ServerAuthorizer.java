package io.kapi.admission.cel;

import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.machinery.cel.CelAuthorizer;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.util.List;

/** CEL's {@code authorizer} for one user, answered by the server's authorizer. */
record ServerAuthorizer(Authorizer authorizer, UserInfo user) implements CelAuthorizer {

    @Override
    public Decision authorize(Check check) {
        Verb verb = verb(check.verb());
        boolean resource = check.path() == null;
        var attributes = new AuthorizationAttributes(user, verb, resource, nullToEmpty(check.group()), "*",
                nullToEmpty(check.resource()), nullToEmpty(check.subresource()), nullToEmpty(check.namespace()),
                nullToEmpty(check.name()), resource ? "" : check.path());
        try {
            return switch (authorizer.authorize(attributes)) {
                case io.kapi.authz.Decision.Allow a -> new Decision("allow", a.reason(), "");
                case io.kapi.authz.Decision.Deny d -> new Decision("deny", d.reason(), "");
                case io.kapi.authz.Decision.NoOpinion n -> new Decision("noOpinion", n.reason(), "");
            };
        } catch (RuntimeException e) {
            return new Decision("noOpinion", "", e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    @Override
    public CelAuthorizer forServiceAccount(String namespace, String name) {
        return new ServerAuthorizer(authorizer, new UserInfo("system:serviceaccount:" + namespace + ":" + name, "",
                List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated")));
    }

    private static Verb verb(String name) {
        for (Verb v : Verb.values()) {
            if (v.apiName().equals(name)) {
                return v;
            }
        }
        return Verb.GET;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
