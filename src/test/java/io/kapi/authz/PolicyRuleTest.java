package io.kapi.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's RBAC rule matching ({@code RuleAllows}), case by case. */
final class PolicyRuleTest {

    private static final UserInfo ALICE = new UserInfo("alice", "", List.of(), java.util.Map.of());

    private static List<String> list(String s) {
        return s.isEmpty() ? List.of() : List.of(s.split(" "));
    }

    @ParameterizedTest(name = "[{index}] rule verbs={0} groups={1} resources={2} names={3} vs {4} {5}/{6}/{7} {8} -> {9}")
    @CsvSource(delimiter = '|', textBlock = """
            get list      | core     | pods           | ''     | get    | ''      | pods       | ''     | p1 | true
            get list      | core     | pods           | ''     | watch  | ''      | pods       | ''     | p1 | false
            *             | core     | pods           | ''     | delete | ''      | pods       | ''     | p1 | true
            get           | *      | *              | ''     | get    | apps    | deployments| ''     | d  | true
            get           | apps   | deployments    | ''     | get    | ''      | deployments| ''     | d  | false
            get           | core     | pods           | ''     | get    | ''      | pods       | status | p1 | false
            get           | core     | pods/status    | ''     | get    | ''      | pods       | status | p1 | true
            get           | core     | pods/status    | ''     | get    | ''      | pods       | ''     | p1 | false
            get           | *      | */scale        | ''     | get    | apps    | deployments| scale  | d  | true
            get           | *      | */scale        | ''     | get    | apps    | deployments| ''     | d  | false
            get           | *      | *              | ''     | get    | ''      | pods       | log    | p1 | true
            get           | core     | secrets        | s1     | get    | ''      | secrets    | ''     | s1 | true
            get           | core     | secrets        | s1     | get    | ''      | secrets    | ''     | s2 | false
            list          | core     | secrets        | s1     | list   | ''      | secrets    | ''     | '' | false
            create        | core     | configmaps     | ''     | create | ''      | configmaps | ''     | '' | true
            """)
    void resources(String verbs, String groups, String resources, String names, String verb, String group,
                   String resource, String subresource, String name, boolean allowed) {
        PolicyRule rule = new PolicyRule(list(verbs), list(groups).stream().map(g -> g.equals("core") ? "" : g).toList(), list(resources),
                list(names), List.of());
        AuthorizationAttributes a = new AuthorizationAttributes(ALICE, Verb.of(verb), true, group, "v1", resource,
                subresource, "ns", name, "");
        assertEquals(allowed, rule.allows(a));
    }

    @ParameterizedTest(name = "[{index}] urls={1} vs {2} {3} -> {4}")
    @CsvSource(delimiter = '|', textBlock = """
            get | /healthz       | get  | /healthz      | true
            get | /healthz       | get  | /healthz/etcd | false
            get | /healthz/*     | get  | /healthz/etcd | true
            get | /healthz/*     | get  | /healthz      | false
            get | *              | get  | /metrics      | true
            get | /api /api/*    | get  | /api/v1       | true
            get | /version       | post | /version      | false
            * | /logs            | post | /logs         | true
            """)
    void paths(String verbs, String urls, String verb, String path, boolean allowed) {
        PolicyRule rule = new PolicyRule(list(verbs), List.of(), List.of(), List.of(), list(urls));
        assertEquals(allowed, rule.allows(new AuthorizationAttributes(ALICE, Verb.of(verb), false, "", "", "", "", "",
                "", path)));
    }

    @ParameterizedTest(name = "[{index}] a resource rule never allows a path, nor a path rule a resource")
    @CsvSource({"true", "false"})
    void kindsApart(boolean resourceRequest) {
        PolicyRule rule = resourceRequest ? new PolicyRule(List.of("*"), List.of(), List.of(), List.of(), List.of("*"))
                : new PolicyRule(List.of("*"), List.of("*"), List.of("*"), List.of(), List.of());
        assertEquals(false, rule.allows(new AuthorizationAttributes(ALICE, Verb.GET, resourceRequest, "", "v1",
                resourceRequest ? "pods" : "", "", "", "", resourceRequest ? "" : "/api")));
    }
}
