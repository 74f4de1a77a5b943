package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.authn.UserInfo;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.request.Verb;
import java.util.Map;

/**
 * The reviews a client asks about itself, computed and never stored: {@code SelfSubjectReview}
 * ({@code kubectl auth whoami}), {@code SelfSubjectAccessReview} ({@code kubectl auth can-i}) and
 * {@code SelfSubjectRulesReview} ({@code kubectl auth can-i --list}). Every authenticated user is
 * all-powerful until authorization modes exist, so access is allowed and the rules are {@code *}.
 */
public final class SelfReviews {

    private SelfReviews() {
    }

    /** The create handlers, by resource. */
    public static Map<GroupVersionResource, VerbHandler> handlers(Codecs codecs) {
        return Map.of(
                new GroupVersionResource("authentication.k8s.io", "v1", "selfsubjectreviews"),
                r -> answer(codecs, r, SelfReviews::whoAmI),
                new GroupVersionResource("authorization.k8s.io", "v1", "selfsubjectaccessreviews"),
                r -> answer(codecs, r, (status, user) -> status.put("allowed", true)),
                new GroupVersionResource("authorization.k8s.io", "v1", "selfsubjectrulesreviews"),
                r -> answer(codecs, r, SelfReviews::allRules));
    }

    private interface StatusFiller {
        void fill(ObjectNode status, UserInfo user);
    }

    private static RestResponse answer(Codecs codecs, ResourceRequest r, StatusFiller filler) {
        if (r.info().verb() != Verb.CREATE || !r.info().subresource().isEmpty()) {
            throw io.kapi.machinery.ApiException.methodNotAllowed();
        }
        Decoded body = codecs.decoder().decode(r.http(), r.resource().gvk());
        ObjectNode review = body.object();
        review.put("apiVersion", r.resource().gvk().apiVersion());
        review.put("kind", r.resource().kind());
        review.with("metadata").put("creationTimestamp", (String) null);
        filler.fill(review.putObject("status"), r.http().user());
        return codecs.writer().object(r.http(), r.resource(), 201, review);
    }

    private static void whoAmI(ObjectNode status, UserInfo user) {
        status.set("userInfo", TokenReviews.userInfo(user));
    }

    private static void allRules(ObjectNode status, UserInfo user) {
        ObjectNode resourceRule = status.putArray("resourceRules").addObject();
        resourceRule.putArray("verbs").add("*");
        resourceRule.putArray("apiGroups").add("*");
        resourceRule.putArray("resources").add("*");
        ObjectNode nonResourceRule = status.putArray("nonResourceRules").addObject();
        nonResourceRule.putArray("verbs").add("*");
        nonResourceRule.putArray("nonResourceURLs").add("*");
        status.put("incomplete", false);
    }
}
