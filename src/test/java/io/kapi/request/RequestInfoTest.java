package io.kapi.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestInfoTest {

    @ParameterizedTest(name = "{0} {1} → {3} {4}/{5} ns={6} {7} {8} {9}")
    @DisplayName("resource paths parse into verb, group, version, namespace, resource, name, subresource")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "GET|/api/v1/namespaces/default/configmaps|-|list||v1|default|configmaps||",
            "GET|/api/v1/namespaces/default/configmaps/c1|-|get||v1|default|configmaps|c1|",
            "GET|/api/v1/configmaps|-|list||v1||configmaps||",
            "GET|/api/v1/configmaps|true|watch||v1||configmaps||",
            "GET|/api/v1/configmaps|True|watch||v1||configmaps||",
            "GET|/api/v1/configmaps|1|watch||v1||configmaps||",
            "GET|/api/v1/configmaps|false|list||v1||configmaps||",
            "GET|/api/v1/configmaps|FALSE|list||v1||configmaps||",
            "GET|/api/v1/configmaps|0|list||v1||configmaps||",
            "GET|/api/v1/watch/namespaces/ns/pods|-|watch||v1|ns|pods||",
            "GET|/api/v1/watch/namespaces/ns/pods/p|-|watch||v1|ns|pods|p|",
            "POST|/apis/apps/v1/namespaces/ns/deployments|-|create|apps|v1|ns|deployments||",
            "PUT|/apis/apps/v1/namespaces/ns/deployments/d/scale|-|update|apps|v1|ns|deployments|d|scale",
            "GET|/api/v1/namespaces/kube-system|-|get||v1|kube-system|namespaces|kube-system|",
            "PUT|/api/v1/namespaces/x/finalize|-|update||v1|x|namespaces|x|finalize",
            "GET|/api/v1/namespaces|-|list||v1||namespaces||",
            "DELETE|/api/v1/namespaces/ns/secrets|-|deletecollection||v1|ns|secrets||",
            "DELETE|/apis/rbac.authorization.k8s.io/v1/clusterroles/view|-|delete|rbac.authorization.k8s.io|v1||clusterroles|view|",
            "GET|/api/v1/namespaces/ns/pods/p/proxy/a/b|-|get||v1|ns|pods|p|proxy/a/b",
            "PATCH|/api/v1/namespaces/ns/pods/p/status|-|patch||v1|ns|pods|p|status",
    })
    void parses(String method, String path, String watch, String verb, String group, String version,
                String namespace, String resource, String name, String subresource) {
        RequestInfo info = RequestInfo.parse(method, path, watch == null ? Map.of() : Map.of("watch", List.of(watch)));
        assertTrue(info.resourceRequest());
        assertEquals(verb, info.verb().apiName());
        assertEquals(n(group), info.group());
        assertEquals(version, info.version());
        assertEquals(n(namespace), info.namespace());
        assertEquals(resource, info.resource());
        assertEquals(n(name), info.name());
        assertEquals(n(subresource), info.subresource());
    }

    @ParameterizedTest
    @DisplayName("discovery and non-API paths are not resource requests; their verb is the lower-case method")
    @CsvSource({"/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1", "/version", "/healthz", "/api/v1/watch"})
    void nonResource(String path) {
        RequestInfo info = RequestInfo.parse("GET", path, Map.of());
        assertFalse(info.resourceRequest());
        assertEquals(Verb.GET, info.verb());
        assertEquals(path, info.path());
        assertEquals(Verb.POST, RequestInfo.parse("POST", path, Map.of()).verb());
    }

    @Test
    @DisplayName("a method the API does not serve has no verb; watches and connect subresources are long-running")
    void unknownMethodAndLongRunning() {
        assertEquals(null, RequestInfo.parse("TRACE", "/api/v1/pods", Map.of()).verb());
        assertTrue(RequestInfo.parse("GET", "/api/v1/pods", Map.of("watch", List.of("1"))).longRunning());
        assertTrue(RequestInfo.parse("POST", "/api/v1/namespaces/n/pods/p/exec", Map.of()).longRunning());
        assertTrue(RequestInfo.parse("GET", "/api/v1/namespaces/n/pods/p/log", Map.of()).longRunning());
        assertFalse(RequestInfo.parse("GET", "/api/v1/namespaces/n/pods/p", Map.of()).longRunning());
    }

    private static String n(String s) {
        return s == null ? "" : s;
    }
}
