package io.kapi.apis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.authz.PolicyRule;
import io.kapi.authz.RuleResolver;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The access-review APIs of {@code authorization.k8s.io/v1}, computed and never stored, as kube's
 * REST for them: {@code SubjectAccessReview} (any user), {@code LocalSubjectAccessReview} (any user, in
 * the request's namespace), {@code SelfSubjectAccessReview} ({@code kubectl auth can-i}) asked of the
 * server's authorizer chain, and {@code SelfSubjectRulesReview} ({@code kubectl auth can-i --list}) from
 * its rule resolvers.
 */
public record AccessReviews(Authorizer authorizer, RuleResolver rules) {

    /** Which review: whose attributes it asks about. */
    public enum Kind { SUBJECT, LOCAL_SUBJECT, SELF_SUBJECT }

    /** Fills {@code status} of access review {@code review} asked by {@code requester} in {@code namespace}. */
    public void review(Kind kind, ObjectNode review, UserInfo requester, String namespace) {
        JsonNode spec = review.path("spec");
        UserInfo subject = kind == Kind.SELF_SUBJECT ? requester : subject(spec);
        JsonNode res = spec.path("resourceAttributes");
        JsonNode nonRes = spec.path("nonResourceAttributes");
        List<FieldError> errors = new ArrayList<>();
        if (res.isObject() == nonRes.isObject()) {
            errors.add(FieldError.invalid("spec.nonResourceAttributes", res.isObject() ? "{...}" : "null",
                    "exactly one of nonResourceAttributes or resourceAttributes must be specified"));
        }
        if (kind != Kind.SELF_SUBJECT && subject.name().isEmpty() && subject.groups().isEmpty()) {
            errors.add(FieldError.invalid("spec.user", "", "at least one of user or group must be specified"));
        }
        if (kind == Kind.LOCAL_SUBJECT && res.isObject() && !res.path("namespace").asText("").equals(namespace)) {
            errors.add(FieldError.invalid("spec.resourceAttributes.namespace", res.path("namespace").asText(""),
                    "must match metadata.namespace"));
        }
        if (kind == Kind.LOCAL_SUBJECT && nonRes.isObject()) {
            errors.add(FieldError.invalid("spec.nonResourceAttributes", "{...}", "disallowed on this kind of request"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.invalid(new io.kapi.machinery.GroupVersionKind("authorization.k8s.io", "v1",
                    review.path("kind").asText()), "", errors);
        }
        Decision d = authorizer.authorize(attributes(subject, res, nonRes));
        ObjectNode status = review.putObject("status");
        status.put("allowed", d instanceof Decision.Allow);
        if (d instanceof Decision.Deny) {
            status.put("denied", true);
        }
        if (!d.reason().isEmpty()) {
            status.put("reason", d.reason());
        }
    }

    private static UserInfo subject(JsonNode spec) {
        List<String> groups = new ArrayList<>();
        spec.path("groups").forEach(g -> groups.add(g.asText()));
        Map<String, List<String>> extra = new LinkedHashMap<>();
        spec.path("extra").properties().forEach(e -> {
            List<String> values = new ArrayList<>();
            e.getValue().forEach(v -> values.add(v.asText()));
            extra.put(e.getKey(), values);
        });
        return new UserInfo(spec.path("user").asText(""), spec.path("uid").asText(""), groups, extra);
    }

    private static AuthorizationAttributes attributes(UserInfo user, JsonNode res, JsonNode nonRes) {
        if (res.isObject()) {
            return new AuthorizationAttributes(user, verb(res.path("verb").asText("")), true,
                    res.path("group").asText(""), res.path("version").asText(""), res.path("resource").asText(""),
                    res.path("subresource").asText(""), res.path("namespace").asText(""), res.path("name").asText(""),
                    "");
        }
        return new AuthorizationAttributes(user, verb(nonRes.path("verb").asText("")), false, "", "", "", "", "", "",
                nonRes.path("path").asText(""));
    }

    /** A verb named in a review (null when Kapi has no such verb: it matches only {@code *} rules). */
    private static Verb verb(String name) {
        return Verb.of(name);
    }

    /** Fills {@code status} of a SelfSubjectRulesReview for {@code user}. */
    public void rules(ObjectNode review, UserInfo user) {
        String namespace = review.path("spec").path("namespace").asText("");
        RuleResolver.Rules found = rules.rulesFor(user, namespace);
        ObjectNode status = review.putObject("status");
        ArrayNode resourceRules = status.putArray("resourceRules");
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        for (PolicyRule r : found.rules()) {
            if (!r.nonResourceURLs().isEmpty()) {
                ObjectNode o = nonResourceRules.addObject();
                strings(o.putArray("verbs"), r.verbs());
                strings(o.putArray("nonResourceURLs"), r.nonResourceURLs());
            }
            if (!r.resources().isEmpty() || !r.apiGroups().isEmpty()) {
                ObjectNode o = resourceRules.addObject();
                strings(o.putArray("verbs"), r.verbs());
                strings(o.putArray("apiGroups"), r.apiGroups());
                strings(o.putArray("resources"), r.resources());
                if (!r.resourceNames().isEmpty()) {
                    strings(o.putArray("resourceNames"), r.resourceNames());
                }
            }
        }
        status.put("incomplete", found.incomplete());
    }

    private static void strings(ArrayNode to, List<String> values) {
        values.forEach(to::add);
    }
}
