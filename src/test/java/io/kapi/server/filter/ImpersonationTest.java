package io.kapi.server.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Decision;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Impersonation as kube's {@code WithImpersonation}: what the requester must be allowed for each header, and
 * the user the request then acts as.
 */
@DisplayName("impersonation")
final class ImpersonationTest {

    private static final UserInfo REQUESTER = new UserInfo("ivan", "", List.of("system:authenticated"));

    /** The attributes asked, and the user the request proceeded as (null when refused). */
    private record Outcome(List<String> asked, UserInfo acting) {
    }

    private static Outcome run(Map<String, List<String>> headers, String allowed) {
        List<String> asked = new ArrayList<>();
        Impersonation filter = new Impersonation(a -> {
            String what = describe(a);
            asked.add(what);
            return allowed.equals("*") || allowed.contains(what) ? Decision.allow() : Decision.noOpinion();
        });
        Map<String, List<String>> lower = new LinkedHashMap<>();
        headers.forEach((k, v) -> lower.put(k.toLowerCase(java.util.Locale.ROOT), v));
        RequestContext context = RequestContext.of(RequestInfo.parse("GET", "/api/v1/pods", Map.of()), null, null, "")
                .withUser(REQUESTER);
        ServerRequest request = new ServerRequest(new RestRequest("GET", "/api/v1/pods", Map.of(), lower,
                new ByteArrayInputStream(new byte[0]), context), List.of(), "127.0.0.1");
        AtomicReference<UserInfo> acting = new AtomicReference<>();
        try {
            FilterChain.of(List.of(filter), r -> {
                acting.set(r.context().user());
                return RestResponse.bytes(200, null, new byte[0]);
            }).proceed(request);
        } catch (ApiException e) {
            if (e.code() != 403) {
                throw e;
            }
        }
        return new Outcome(asked, acting.get());
    }

    private static String describe(AuthorizationAttributes a) {
        return a.resource() + (a.subresource().isEmpty() ? "" : "/" + a.subresource()) + ":"
                + (a.namespace().isEmpty() ? "" : a.namespace() + "/") + a.name();
    }

    @Test
    @DisplayName("a service account is asked as serviceaccounts in its namespace, and gets its groups")
    void serviceAccount() {
        Outcome o = run(Map.of("Impersonate-User", List.of("system:serviceaccount:team:robot")),
                "serviceaccounts:team/robot");
        assertEquals(List.of("serviceaccounts:team/robot"), o.asked());
        assertEquals(List.of("system:serviceaccounts", "system:serviceaccounts:team", "system:authenticated"),
                o.acting().groups());
    }

    @Test
    @DisplayName("a service-account-like name that is not one (an extra colon, an invalid namespace) is a user name")
    void notAServiceAccount() {
        for (String name : List.of("system:serviceaccount:team:a:b", "system:serviceaccount:Team:robot",
                "system:serviceaccount::robot")) {
            Outcome o = run(Map.of("Impersonate-User", List.of(name)), "serviceaccounts:team/a:b");
            assertEquals(List.of("users:" + name), o.asked(), name);
            assertNull(o.acting(), name + ": needs impersonate on users");
            UserInfo user = run(Map.of("Impersonate-User", List.of(name)), "*").acting();
            assertEquals(List.of("system:authenticated"), user.groups(), name + ": no service-account groups");
        }
    }

    @Test
    @DisplayName("naming system:unauthenticated keeps system:authenticated out")
    void unauthenticatedGroup() {
        UserInfo user = run(Map.of("Impersonate-User", List.of("someone"), "Impersonate-Group",
                List.of("system:unauthenticated")), "*").acting();
        assertEquals(List.of("system:unauthenticated"), user.groups());
    }

    @Test
    @DisplayName("empty impersonation headers are no impersonation; groups without a user are 400")
    void emptyHeaders() {
        Outcome o = run(Map.of("Impersonate-User", List.of(""), "Impersonate-Uid", List.of("")), "");
        assertEquals(List.of(), o.asked());
        assertEquals(REQUESTER, o.acting());
        ApiException e = assertThrows(ApiException.class,
                () -> run(Map.of("Impersonate-User", List.of(""), "Impersonate-Group", List.of("g")), "*"));
        assertEquals(400, e.code());
    }
}
