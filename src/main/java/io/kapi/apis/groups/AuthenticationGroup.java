package io.kapi.apis.groups;

import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code authentication.k8s.io}: reviews, computed per request (see {@link io.kapi.apis.TokenReviews}). */
final class AuthenticationGroup {

    private static final GroupVersion V1 = new GroupVersion("authentication.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "SelfSubjectReview"),
            BuiltinKind.of(V1, "TokenReview"));

    private AuthenticationGroup() {
    }
}
