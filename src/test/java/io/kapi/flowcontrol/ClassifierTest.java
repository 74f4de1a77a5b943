package io.kapi.flowcontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClassifierTest {

    static FlowSchema schema(String name, int precedence, String level, String distinguisher, String rules) {
        try {
            JsonNode node = Json.MAPPER.readTree("""
                    {"metadata": {"name": "%s", "uid": "uid-%s"}, "spec": {"matchingPrecedence": %d,
                     "priorityLevelConfiguration": {"name": "%s"}, %s "rules": %s}}"""
                    .formatted(name, name, precedence, level,
                            distinguisher == null ? "" : "\"distinguisherMethod\": {\"type\": \"" + distinguisher + "\"},",
                            rules.replace('\'', '"')));
            return FlowSchema.parse(node);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static final String ALL_PODS_OF_ALICE = """
            [{"subjects": [{"kind": "User", "user": {"name": "alice"}}],
              "resourceRules": [{"verbs": ["*"], "apiGroups": [""], "resources": ["pods"], "namespaces": ["*"]}]}]""";

    static RequestInfo get(String path) {
        return RequestInfo.parse("GET", path, Map.of());
    }

    static UserInfo user(String name, String... groups) {
        return new UserInfo(name, "", List.of(groups));
    }

    @Test
    @DisplayName("the schema of lowest matchingPrecedence wins, then the name decides")
    void precedenceThenName() {
        Classifier c = new Classifier(List.of(schema("b", 500, "x", null, ALL_PODS_OF_ALICE),
                schema("z", 100, "x", null, ALL_PODS_OF_ALICE), schema("a", 500, "x", null, ALL_PODS_OF_ALICE)));
        assertEquals("z", c.classify(get("/api/v1/namespaces/n/pods"), user("alice")).schema().name());
        c = new Classifier(List.of(schema("b", 500, "x", null, ALL_PODS_OF_ALICE),
                schema("a", 500, "x", null, ALL_PODS_OF_ALICE)));
        assertEquals("a", c.classify(get("/api/v1/namespaces/n/pods"), user("alice")).schema().name());
    }

    @Test
    @DisplayName("users, groups and service accounts match by name, * matches everyone of the kind")
    void subjects() {
        String rules = """
                [{"subjects": [{"kind": "Group", "group": {"name": "devs"}},
                               {"kind": "ServiceAccount", "serviceAccount": {"namespace": "ci", "name": "builder"}}],
                  "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]""";
        String anySa = """
                [{"subjects": [{"kind": "ServiceAccount", "serviceAccount": {"namespace": "ops", "name": "*"}}],
                  "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]""";
        String anyone = """
                [{"subjects": [{"kind": "User", "user": {"name": "*"}}],
                  "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]""";
        Classifier c = new Classifier(List.of(schema("named", 1, "x", null, rules), schema("ops", 2, "x", null, anySa),
                schema("anyone", 3, "x", null, anyone)));
        RequestInfo info = get("/version");
        assertEquals("named", c.classify(info, user("bob", "devs")).schema().name());
        assertEquals("named", c.classify(info, user("system:serviceaccount:ci:builder")).schema().name());
        assertEquals("anyone", c.classify(info, user("system:serviceaccount:ci:other")).schema().name());
        assertEquals("ops", c.classify(info, user("system:serviceaccount:ops:anything")).schema().name());
        assertEquals("anyone", c.classify(info, user("system:serviceaccount:opsx:a")).schema().name());
        assertEquals("anyone", c.classify(info, user("carol")).schema().name());
    }

    @Test
    @DisplayName("resource rules check verb, group, resource/subresource and namespace or cluster scope")
    void resourceRules() {
        String rules = """
                [{"subjects": [{"kind": "Group", "group": {"name": "*"}}],
                  "resourceRules": [{"verbs": ["get", "list"], "apiGroups": ["apps"], "resources": ["deployments/scale"],
                                     "namespaces": ["prod"]},
                                    {"verbs": ["*"], "apiGroups": ["*"], "resources": ["nodes"], "clusterScope": true}]}]""";
        Classifier c = new Classifier(List.of(schema("s", 1, "x", null, rules)));
        UserInfo u = user("u", "g");
        assertEquals("s", c.classify(get("/apis/apps/v1/namespaces/prod/deployments/d/scale"), u).schema().name());
        assertNull(c.classify(get("/apis/apps/v1/namespaces/dev/deployments/d/scale"), u));
        assertNull(c.classify(get("/apis/apps/v1/namespaces/prod/deployments/d"), u));
        assertNull(c.classify(RequestInfo.parse("PUT", "/apis/apps/v1/namespaces/prod/deployments/d/scale", Map.of()), u));
        assertEquals("s", c.classify(RequestInfo.parse("DELETE", "/api/v1/nodes/n1", Map.of()), u).schema().name());
        // a namespaced request never matches a cluster-scope-only rule
        assertNull(c.classify(get("/api/v1/namespaces/prod/nodes/n1"), u));
        // resource rules do not match non-resource requests
        assertNull(c.classify(get("/healthz"), u));
    }

    @Test
    @DisplayName("a non-resource URL matches itself and every path below it, with or without /*")
    void nonResourceUrls() {
        String rules = """
                [{"subjects": [{"kind": "Group", "group": {"name": "*"}}],
                  "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz", "/metrics/*"]}]}]""";
        Classifier c = new Classifier(List.of(schema("s", 1, "x", null, rules)));
        UserInfo u = user("u");
        for (String path : List.of("/healthz", "/healthz/etcd", "/metrics/x", "/metrics/")) {
            assertEquals("s", c.classify(get(path), u).schema().name(), path);
        }
        for (String path : List.of("/healthzz", "/metrics", "/version")) {
            assertNull(c.classify(get(path), u), path);
        }
        assertNull(c.classify(RequestInfo.parse("POST", "/healthz", Map.of()), u));
    }

    @Test
    @DisplayName("the distinguisher makes the flow: the user, the namespace, or one flow for all")
    void distinguishers() {
        String rules = """
                [{"subjects": [{"kind": "Group", "group": {"name": "*"}}],
                  "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "namespaces": ["*"],
                                     "clusterScope": true}]}]""";
        RequestInfo info = get("/api/v1/namespaces/team/pods");
        assertEquals("alice", new Classifier(List.of(schema("s", 1, "x", "ByUser", rules)))
                .classify(info, user("alice")).distinguisher());
        assertEquals("team", new Classifier(List.of(schema("s", 1, "x", "ByNamespace", rules)))
                .classify(info, user("alice")).distinguisher());
        assertEquals("", new Classifier(List.of(schema("s", 1, "x", null, rules))).classify(info, user("alice"))
                .distinguisher());
    }

    @Test
    @DisplayName("with thousands of schemas naming other users, a request only tries the few that name it")
    void manySchemas() {
        List<FlowSchema> schemas = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            schemas.add(schema("s" + i, 10, "x", null, ALL_PODS_OF_ALICE.replace("alice", "user" + i)));
        }
        schemas.add(schema("late", 9000, "x", null, ALL_PODS_OF_ALICE));
        Classifier c = new Classifier(schemas);
        RequestInfo info = get("/api/v1/namespaces/n/pods");
        assertEquals("late", c.classify(info, user("alice")).schema().name());
        assertEquals("s4321", c.classify(info, user("user4321")).schema().name());
        long start = System.nanoTime();
        for (int i = 0; i < 100_000; i++) {
            c.classify(info, user("alice"));
        }
        long perCall = (System.nanoTime() - start) / 100_000;
        assertEquals(true, perCall < 20_000, "a classification took " + perCall + " ns");
    }
}
