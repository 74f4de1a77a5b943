package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.util.Map;

/**
 * The reviews a client asks about itself, computed and never stored: {@code SelfSubjectReview}
 * ({@code kubectl auth whoami}), {@code SelfSubjectAccessReview} ({@code kubectl auth can-i}) and
 * {@code SelfSubjectRulesReview} ({@code kubectl auth can-i --list}), and the subject access reviews,
 * the last four answered by {@link AccessReviews} from the server's authorizer chain.
 */
public final class SelfReviews {

    private SelfReviews() {
    }

    /** The create handlers, by resource. */
    public static Map<GroupVersionResource, VerbHandler> handlers(Codecs codecs, AccessReviews access) {
        String authz = "authorization.k8s.io";
        return Map.of(
                new GroupVersionResource("authentication.k8s.io", "v1", "selfsubjectreviews"),
                r -> answer(codecs, r, (review, req) -> whoAmI(review.putObject("status"), req.http().user())),
                new GroupVersionResource(authz, "v1", "selfsubjectaccessreviews"),
                r -> answer(codecs, r, (review, req) -> access.review(AccessReviews.Kind.SELF_SUBJECT, review,
                        req.http().user(), "")),
                new GroupVersionResource(authz, "v1", "subjectaccessreviews"),
                r -> answer(codecs, r, (review, req) -> access.review(AccessReviews.Kind.SUBJECT, review,
                        req.http().user(), "")),
                new GroupVersionResource(authz, "v1", "localsubjectaccessreviews"),
                r -> answer(codecs, r, (review, req) -> access.review(AccessReviews.Kind.LOCAL_SUBJECT, review,
                        req.http().user(), req.info().namespace())),
                new GroupVersionResource(authz, "v1", "selfsubjectrulesreviews"),
                r -> answer(codecs, r, (review, req) -> access.rules(review, req.http().user())));
    }

    private interface StatusFiller {
        void fill(ObjectNode review, ResourceRequest request);
    }

    private static RestResponse answer(Codecs codecs, ResourceRequest r, StatusFiller filler) {
        if (r.info().verb() != Verb.CREATE || !r.info().subresource().isEmpty()) {
            throw io.kapi.machinery.ApiException.methodNotAllowed();
        }
        Decoded body = codecs.decoder().decode(r.http(), r.resource().gvk());
        ObjectNode review = body.object();
        review.put("apiVersion", r.resource().gvk().apiVersion());
        review.put("kind", r.resource().kind());
        // absent or null metadata is an empty ObjectMeta, as Go decodes it
        ObjectMeta.of(review).node().putNull("creationTimestamp");
        filler.fill(review, r);
        return codecs.writer().object(r.http(), r.resource(), 201, review);
    }

    private static void whoAmI(ObjectNode status, UserInfo user) {
        status.set("userInfo", TokenReviews.userInfo(user));
    }
}
