package io.kapi.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.DisplayName;
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
            "GET|/api/v1/configmaps|''|watch||v1||configmaps||",
            "GET|/api/v1/configmaps|False|list||v1||configmaps||",
            "GET|/api/v1/configmaps|0|list||v1||configmaps||",
            "GET|/api/v1/watch/namespaces/ns/pods|-|watch||v1|ns|pods||",
            "POST|/apis/apps/v1/namespaces/ns/deployments|-|create|apps|v1|ns|deployments||",
            "PUT|/apis/apps/v1/namespaces/ns/deployments/d/scale|-|update|apps|v1|ns|deployments|d|scale",
            "GET|/api/v1/namespaces/kube-system|-|get||v1|kube-system|namespaces|kube-system|",
            "PUT|/api/v1/namespaces/x/finalize|-|update||v1|x|namespaces|x|finalize",
            "GET|/api/v1/namespaces|-|list||v1||namespaces||",
            "DELETE|/api/v1/namespaces/ns/secrets|-|deletecollection||v1|ns|secrets||",
            "DELETE|/apis/rbac.authorization.k8s.io/v1/clusterroles/view|-|delete|rbac.authorization.k8s.io|v1||clusterroles|view|",
            "GET|/api/v1/namespaces/ns/pods/p/proxy/a/b|-|get||v1|ns|pods|p|proxy/a/b",
    })
    void parses(String method, String path, String watch, String verb, String group, String version,
                String namespace, String resource, String name, String subresource) {
        RequestInfo info = RequestInfo.parse(method, path, watch);
        assertEquals(new RequestInfo(verb, n(group), version, n(namespace), resource, n(name), n(subresource)), info);
    }

    @ParameterizedTest
    @DisplayName("discovery and non-API paths are not resource requests")
    @CsvSource({"/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1", "/version", "/healthz"})
    void nonResource(String path) {
        assertNull(RequestInfo.parse("GET", path, null));
    }

    private static String n(String s) {
        return s == null ? "" : s;
    }
}
