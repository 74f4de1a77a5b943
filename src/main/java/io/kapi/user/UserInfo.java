package io.kapi.user;

import java.util.List;
import java.util.Map;

/**
 * Who made a request, as kube's {@code user.Info}: a user name, a uid, the groups it belongs to and
 * extra attributes (e.g. {@code authentication.kubernetes.io/credential-id}) authenticators add.
 */
public record UserInfo(String name, String uid, List<String> groups, Map<String, List<String>> extra) {

    public static final UserInfo ANONYMOUS =
            new UserInfo("system:anonymous", "", List.of("system:unauthenticated"));

    public UserInfo {
        groups = List.copyOf(groups);
        extra = Map.copyOf(extra);
    }

    public UserInfo(String name, String uid, List<String> groups) {
        this(name, uid, groups, Map.of());
    }
}
