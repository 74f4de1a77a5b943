package io.kapi.authz;

import io.kapi.authz.modes.AuthorizationModes;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ABAC mode from a policy file, alone and chained with the other modes. */
final class AbacAuthorizerTest {

    private static final String POLICIES = """
            # admin may do anything
            {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"admin","namespace":"*","resource":"*","apiGroup":"*","nonResourcePath":"*"}}
            {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"alice","namespace":"projectCaribou","resource":"*","apiGroup":"*"}}
            {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"projectCaribou","resource":"pods","apiGroup":"","readonly":true}}
            {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","readonly":true,"nonResourcePath":"/version"}}
            {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"ops","namespace":"*","resource":"deployments","apiGroup":"apps"}}
            {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"*","readonly":true,"nonResourcePath":"/healthz*"}}

            {"user":"legacy","readonly":true}
            """;

    private static AbacAuthorizer abac(Path dir) throws Exception {
        Path file = dir.resolve("policy.jsonl");
        Files.writeString(file, POLICIES);
        return AbacAuthorizer.read(file);
    }

    private static AuthorizationAttributes resource(String user, List<String> groups, String verb, String group,
                                                    String resource, String namespace) {
        return new AuthorizationAttributes(new UserInfo(user, "", groups, Map.of()), Verb.of(verb), true, group, "v1",
                resource, "", namespace, "", "");
    }

    @ParameterizedTest(name = "[{index}] {0} {2} {4}.{3} in {5} -> {6}")
    @CsvSource(delimiter = '|', textBlock = """
            admin  | ''  | delete | ''   | pods        | x              | true
            alice  | ''  | create | ''   | pods        | projectCaribou | true
            alice  | ''  | create | apps | deployments | projectCaribou | true
            alice  | ''  | get    | ''   | pods        | other          | false
            bob    | ''  | list   | ''   | pods        | projectCaribou | true
            bob    | ''  | create | ''   | pods        | projectCaribou | false
            bob    | ''  | list   | ''   | secrets     | projectCaribou | false
            carol  | ops | patch  | apps | deployments | anywhere       | true
            carol  | ops | patch  | ''   | pods        | anywhere       | false
            legacy | ''  | get    | ''   | secrets     | any            | true
            legacy | ''  | delete | ''   | secrets     | any            | false
            """)
    void resources(String user, String group, String verb, String apiGroup, String resource, String namespace,
                   boolean allowed, @TempDir Path dir) throws Exception {
        Decision d = abac(dir).authorize(resource(user, group.isEmpty() ? List.of() : List.of(group), verb, apiGroup,
                resource, namespace));
        assertEquals(allowed, d instanceof Decision.Allow, d.toString());
    }

    @Test
    @DisplayName("paths: exact, prefix*, read only; a user matches no path policy of another")
    void paths(@TempDir Path dir) throws Exception {
        AbacAuthorizer a = abac(dir);
        UserInfo dave = new UserInfo("dave", "", List.of("system:authenticated"), Map.of());
        assertInstanceOf(Decision.Allow.class, a.authorize(path(dave, Verb.GET, "/version")));
        assertInstanceOf(Decision.NoOpinion.class, a.authorize(path(dave, Verb.POST, "/version")));
        assertInstanceOf(Decision.Allow.class, a.authorize(path(UserInfo.ANONYMOUS, Verb.GET, "/healthz/etcd")));
        Decision none = a.authorize(path(dave, Verb.GET, "/metrics"));
        assertEquals(new Decision.NoOpinion("No policy matched."), none);
    }

    private static AuthorizationAttributes path(UserInfo user, Verb verb, String path) {
        return new AuthorizationAttributes(user, verb, false, "", "", "", "", "", "", path);
    }

    @Test
    @DisplayName("a policy line that is not a policy stops the start, naming the line")
    void badLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, "{\"user\":\"a\"}\n{\"apiVersion\":\"abac.authorization.kubernetes.io/v9\"}\n");
        var e = assertThrows(IllegalArgumentException.class, () -> AbacAuthorizer.read(file));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }

    @Test
    @DisplayName("chained: ABAC's no opinion falls through to the next mode; AlwaysDeny after it denies")
    void chained(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("policy.jsonl");
        Files.writeString(file, POLICIES);
        AuthorizationConfig config = AuthorizationConfig.DEFAULT.withPolicyFile(file);
        Authorizer abacThenDeny = AuthorizationModes.build(List.of("ABAC", "AlwaysDeny"), null, config).authorizer();
        assertInstanceOf(Decision.Allow.class, abacThenDeny.authorize(resource("bob", List.of(), "get", "", "pods",
                "projectCaribou")));
        assertInstanceOf(Decision.Deny.class, abacThenDeny.authorize(resource("bob", List.of(), "delete", "", "pods",
                "projectCaribou")));
        Authorizer denyThenAbac = AuthorizationModes.build(List.of("AlwaysDeny", "ABAC"), null, config).authorizer();
        assertInstanceOf(Decision.Deny.class, denyThenAbac.authorize(resource("bob", List.of(), "get", "", "pods",
                "projectCaribou")));
        Authorizer abacThenAllow = AuthorizationModes.build(List.of("ABAC", "AlwaysAllow"), null, config).authorizer();
        assertInstanceOf(Decision.Allow.class, abacThenAllow.authorize(resource("bob", List.of(), "delete", "", "pods",
                "projectCaribou")));
        assertInstanceOf(Decision.Allow.class, denyThenAbac.authorize(resource("root", List.of("system:masters"),
                "delete", "", "pods", "x")), "system:masters before every mode");
    }
}
