package io.kapi.authz;

import io.kapi.user.UserInfo;
import java.util.List;

/**
 * Lists the rules that apply to a user in a namespace, as kube's {@code authorizer.RuleResolver}, for
 * {@code SelfSubjectRulesReview} ({@code kubectl auth can-i --list}).
 */
@FunctionalInterface
public interface RuleResolver {

    /**
     * @param rules what the user may do
     * @param incomplete whether some authorizer of the chain cannot list its rules
     */
    record Rules(List<PolicyRule> rules, boolean incomplete) {
    }

    /** @param namespace "" for cluster-wide rules only */
    Rules rulesFor(UserInfo user, String namespace);
}
