package io.kapi.authn;

import java.util.List;

/** Who made a request, as {@code user.Info}: a user name and the groups it belongs to. */
public record UserInfo(String name, String uid, List<String> groups) {

    public static final UserInfo ANONYMOUS =
            new UserInfo("system:anonymous", "", List.of("system:unauthenticated"));
}
