package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.authn.TokenAuthenticator;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /apis/authentication.k8s.io/v1/tokenreviews}, as kube's TokenReview REST: the token of
 * {@code spec.token} given to the server's token authenticators with {@code spec.audiences} (none: the
 * API's own); {@code status.authenticated}, {@code status.user} and {@code status.audiences} say what
 * they found. Computed, never stored. A refused token gives no reason beyond that.
 */
public record TokenReviews(Codecs codecs, TokenAuthenticator tokens) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (r.info().verb() != Verb.CREATE || !r.info().subresource().isEmpty()) {
            throw ApiException.methodNotAllowed();
        }
        ObjectNode review = codecs.decoder().decode(r.http(), r.resource().gvk()).object();
        String token = review.path("spec").path("token").asText("");
        if (token.isEmpty()) {
            throw ApiException.badRequest("token is required for TokenReview in authentication");
        }
        List<String> audiences = new ArrayList<>();
        review.path("spec").path("audiences").forEach(a -> audiences.add(a.asText()));
        review.put("apiVersion", r.resource().gvk().apiVersion());
        review.put("kind", r.resource().kind());
        review.with("metadata").put("creationTimestamp", (String) null);
        ObjectNode status = review.putObject("status");
        Optional<TokenAuthenticator.Accepted> accepted = tokens.authenticate(token, audiences);
        status.put("authenticated", accepted.isPresent());
        if (accepted.isPresent()) {
            status.set("user", userInfo(accepted.get().user()));
            ArrayNode aud = status.putArray("audiences");
            accepted.get().audiences().forEach(aud::add);
        } else {
            status.putObject("user");
            status.put("error", "token not accepted");
        }
        return codecs.writer().object(r.http(), r.resource(), 201, review);
    }

    /** kube's {@code authentication.v1.UserInfo} of a user. */
    static ObjectNode userInfo(UserInfo user) {
        ObjectNode info = io.kapi.machinery.Json.object();
        info.put("username", user.name());
        if (!user.uid().isEmpty()) {
            info.put("uid", user.uid());
        }
        ArrayNode groups = info.putArray("groups");
        user.groups().forEach(groups::add);
        if (!user.extra().isEmpty()) {
            ObjectNode extra = info.putObject("extra");
            user.extra().forEach((k, v) -> {
                ArrayNode values = extra.putArray(k);
                v.forEach(values::add);
            });
        }
        return info;
    }
}
