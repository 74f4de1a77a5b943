package io.kapi.server.filter;

import io.kapi.audit.AuditContext;
import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * kube's {@code WithImpersonation}: {@code Impersonate-User}, {@code Impersonate-Group} (repeatable),
 * {@code Impersonate-Uid} and {@code Impersonate-Extra-<key>} make the request act as another user, if
 * the authorizer allows the requester the verb {@code impersonate} on each: {@code users} (or, for
 * {@code system:serviceaccount:<ns>:<name>}, {@code serviceaccounts} in that namespace), {@code groups},
 * {@code uids} and {@code userextras/<key>} (group {@code authentication.k8s.io}). A refusal is 403 as
 * kube words it; groups, uid or extra without a user are 400 (an empty header is no header). The
 * impersonated user gets {@code system:authenticated} unless {@code system:unauthenticated} was named (a
 * service account, one whose namespace and name are valid, also its two groups when no group was named).
 */
public record Impersonation(Authorizer authorizer) implements Filter {

    private static final String EXTRA_PREFIX = "impersonate-extra-";
    private static final String SA_PREFIX = "system:serviceaccount:";
    private static final String UNAUTHENTICATED = "system:unauthenticated";

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        RestRequest rest = request.rest();
        String user = nonEmpty(rest.header("Impersonate-User"));
        List<String> groups = rest.headers("Impersonate-Group");
        String uid = nonEmpty(rest.header("Impersonate-Uid"));
        Map<String, List<String>> extra = extra(rest);
        if (user == null && groups.isEmpty() && uid == null && extra.isEmpty()) {
            return chain.proceed(request);
        }
        if (user == null) {
            throw ApiException.badRequest("requested impersonation of %s without impersonating a user"
                    .formatted(groups.isEmpty() ? (uid != null ? "a uid" : "extra") : "groups " + groups));
        }
        UserInfo requester = request.context().user();
        check(requester, userAttributes(requester, user));
        for (String g : groups) {
            check(requester, attributes(requester, "", "groups", "", "", g));
        }
        if (uid != null) {
            check(requester, attributes(requester, "authentication.k8s.io", "uids", "", "", uid));
        }
        extra.forEach((key, values) -> values.forEach(v ->
                check(requester, attributes(requester, "authentication.k8s.io", "userextras", key, "", v))));
        UserInfo acting = new UserInfo(user, uid == null ? "" : uid, actingGroups(user, groups), extra);
        AuditContext.impersonated(acting);
        return chain.proceed(request.withContext(request.context().withUser(acting)));
    }

    /** kube's impersonated groups: a service account's own when none named; authenticated unless said otherwise. */
    private static List<String> actingGroups(String user, List<String> named) {
        List<String> groups = new ArrayList<>(named);
        if (user.equals("system:anonymous")) {
            if (!groups.contains(UNAUTHENTICATED)) {
                groups.add(UNAUTHENTICATED);
            }
            return groups;
        }
        String[] account = serviceAccount(user);
        if (named.isEmpty() && account != null) {
            groups.add("system:serviceaccounts");
            groups.add("system:serviceaccounts:" + account[0]);
        }
        if (!groups.contains(Authentication.AUTHENTICATED) && !groups.contains(UNAUTHENTICATED)) {
            groups.add(Authentication.AUTHENTICATED);
        }
        return groups;
    }

    private static AuthorizationAttributes userAttributes(UserInfo requester, String user) {
        String[] account = serviceAccount(user);
        return account != null ? attributes(requester, "", "serviceaccounts", "", account[0], account[1])
                : attributes(requester, "", "users", "", "", user);
    }

    /**
     * kube's {@code serviceaccount.SplitUsername}: namespace and name of {@code system:serviceaccount:<ns>:<name>}
     * when the namespace is a DNS label and the name a DNS subdomain, else null (then it is a plain user name).
     */
    static String[] serviceAccount(String user) {
        if (!user.startsWith(SA_PREFIX)) {
            return null;
        }
        String[] parts = user.substring(SA_PREFIX.length()).split(":", -1);
        return parts.length == 2 && Identifiers.dns1123Label(parts[0]).isEmpty()
                && Identifiers.dns1123Subdomain(parts[1]).isEmpty() ? parts : null;
    }

    /** A header's value, null when absent or empty (kube ignores an empty impersonation header). */
    private static String nonEmpty(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static AuthorizationAttributes attributes(UserInfo requester, String group, String resource,
                                                      String subresource, String namespace, String name) {
        return new AuthorizationAttributes(requester, Verb.IMPERSONATE, true, group, "", resource, subresource,
                namespace, name, "");
    }

    private void check(UserInfo requester, AuthorizationAttributes a) {
        Decision d = authorizer.authorize(a);
        if (!(d instanceof Decision.Allow)) {
            throw Authorization.forbidden(a, d.reason());
        }
    }

    private static Map<String, List<String>> extra(RestRequest rest) {
        Map<String, List<String>> extra = new LinkedHashMap<>();
        rest.headers().forEach((name, values) -> {
            if (name.startsWith(EXTRA_PREFIX) && name.length() > EXTRA_PREFIX.length()) {
                String key = URLDecoder.decode(name.substring(EXTRA_PREFIX.length()), StandardCharsets.UTF_8)
                        .toLowerCase(Locale.ROOT);
                extra.computeIfAbsent(key, k -> new ArrayList<>()).addAll(values);
            }
        });
        return extra;
    }
}
