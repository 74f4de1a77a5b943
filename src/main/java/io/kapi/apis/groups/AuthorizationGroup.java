package io.kapi.apis.groups;

import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code authorization.k8s.io}: access reviews, computed per request (see {@link io.kapi.apis.AccessReviews}). */
final class AuthorizationGroup {

    private static final GroupVersion V1 = new GroupVersion("authorization.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "LocalSubjectAccessReview"),
            BuiltinKind.of(V1, "SelfSubjectAccessReview"),
            BuiltinKind.of(V1, "SelfSubjectRulesReview"),
            BuiltinKind.of(V1, "SubjectAccessReview"));

    private AuthorizationGroup() {
    }
}
