package io.kapi.e2e.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Valid requests of every verb (create, get, list, watch, update, patch of each type, apply, delete,
 * deletecollection, subresources), body format (JSON, YAML, protobuf) and response format, against the
 * objects {@link #fixtures()} keeps in namespace {@value #NS}. The mutator starts from these.
 */
final class Seeds {

    static final String NS = "fuzz";
    static final String JSON = "application/json";
    static final String YAML = "application/yaml";
    static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

    /** A kind the fuzzer writes: its collection path, GVK and a valid object named {@code %s}. */
    record Kind(String collection, GroupVersionKind gvk, String template) {
        ObjectNode object(String name) {
            return (ObjectNode) parse(template.formatted(name));
        }

        String path(String name) {
            return collection + "/" + name;
        }
    }

    static final List<Kind> KINDS = List.of(
            new Kind("/api/v1/namespaces/" + NS + "/configmaps", new GroupVersionKind("", "v1", "ConfigMap"), """
                    {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","labels":{"fuzz":"yes"}},\
                    "data":{"k":"v","other":"w"}}"""),
            new Kind("/api/v1/namespaces/" + NS + "/secrets", new GroupVersionKind("", "v1", "Secret"), """
                    {"apiVersion":"v1","kind":"Secret","metadata":{"name":"%s","labels":{"fuzz":"yes"}},\
                    "type":"Opaque","data":{"k":"dmFsdWU="}}"""),
            new Kind("/api/v1/namespaces/" + NS + "/pods", new GroupVersionKind("", "v1", "Pod"), """
                    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"fuzz":"yes","app":"x"}},\
                    "spec":{"containers":[{"name":"c","image":"nginx:1","ports":[{"containerPort":80,"protocol":"TCP"}],\
                    "env":[{"name":"A","value":"1"}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"}}}]}}"""),
            new Kind("/api/v1/namespaces/" + NS + "/services", new GroupVersionKind("", "v1", "Service"), """
                    {"apiVersion":"v1","kind":"Service","metadata":{"name":"%s","labels":{"fuzz":"yes"}},\
                    "spec":{"selector":{"app":"x"},"ports":[{"name":"http","port":80,"targetPort":8080}]}}"""),
            new Kind("/apis/apps/v1/namespaces/" + NS + "/deployments", new GroupVersionKind("apps", "v1", "Deployment"), """
                    {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","labels":{"fuzz":"yes"}},\
                    "spec":{"replicas":1,"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":\
                    {"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"nginx:1"}]}}}}"""),
            new Kind("/api/v1/namespaces/" + NS + "/serviceaccounts", new GroupVersionKind("", "v1", "ServiceAccount"), """
                    {"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"%s","labels":{"fuzz":"yes"}}}"""));

    private Seeds() {
    }

    static JsonNode parse(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] yaml(JsonNode tree) {
        try {
            return Json.yaml().writeValueAsBytes(tree);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The objects the seeds act on: the namespace, then one "fixture" of each kind. Re-sent from time to time. */
    static List<FuzzRequest> fixtures() {
        List<FuzzRequest> out = new ArrayList<>();
        out.add(post("/api/v1/namespaces", JSON, bytes("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                + NS + "\"}}"), "fixture-ns"));
        for (Kind k : KINDS) {
            out.add(post(k.collection(), JSON, bytes(k.object("fixture").toString()), "fixture-" + k.gvk().kind()));
        }
        return out;
    }

    /** Every seed; {@code n} makes the names of created objects unique. */
    static List<FuzzRequest> all(int n) {
        List<FuzzRequest> out = new ArrayList<>();
        for (Kind k : KINDS) {
            String kind = k.gvk().kind();
            ObjectNode created = k.object("f-" + n);
            out.add(post(k.collection(), JSON, bytes(created.toString()), kind + "-create-json"));
            out.add(post(k.collection(), YAML, yaml(k.object("y-" + n)), kind + "-create-yaml"));
            if (ProtobufCodec.supports(k.gvk())) {
                out.add(post(k.collection(), PROTOBUF, ProtobufCodec.encode(k.object("p-" + n), k.gvk()), kind + "-create-pb"));
            }
            for (String accept : List.of(JSON, YAML, PROTOBUF, "application/json;as=Table;v=v1;g=meta.k8s.io",
                    "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io", "*/*")) {
                out.add(request("GET", k.path("fixture"), null, new byte[0], accept, kind + "-get"));
            }
            out.add(request("GET", k.collection() + "?limit=2&labelSelector=fuzz%3Dyes", null, new byte[0], JSON, kind + "-list"));
            out.add(request("GET", k.collection() + "?fieldSelector=metadata.name%3Dfixture", null, new byte[0],
                    "application/json;as=Table;v=v1;g=meta.k8s.io", kind + "-list-table"));
            out.add(request("GET", k.collection() + "?watch=1&timeoutSeconds=1&allowWatchBookmarks=true", null, new byte[0],
                    JSON, kind + "-watch"));
            ObjectNode update = k.object("fixture");
            out.add(request("PUT", k.path("fixture"), JSON, bytes(update.toString()), JSON, kind + "-update"));
            out.add(request("PUT", k.path("fixture"), YAML, yaml(update), JSON, kind + "-update-yaml"));
            out.add(request("PATCH", k.path("fixture"), "application/merge-patch+json",
                    bytes("{\"metadata\":{\"labels\":{\"m\":\"" + n + "\"}}}"), JSON, kind + "-patch-merge"));
            out.add(request("PATCH", k.path("fixture"), "application/strategic-merge-patch+json",
                    bytes("{\"metadata\":{\"labels\":{\"s\":\"" + n + "\"},\"annotations\":{\"a\":\"b\"}}}"), JSON,
                    kind + "-patch-strategic"));
            out.add(request("PATCH", k.path("fixture"), "application/json-patch+json",
                    bytes("[{\"op\":\"add\",\"path\":\"/metadata/labels/j\",\"value\":\"" + n + "\"},"
                            + "{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"fixture\"}]"), JSON, kind + "-patch-json"));
            out.add(request("PATCH", k.path("applied") + "?fieldManager=fuzz&force=true", "application/apply-patch+yaml",
                    yaml(k.object("applied")), JSON, kind + "-apply"));
            out.add(request("DELETE", k.path("f-" + (n - 1)), JSON,
                    bytes("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Background\"}"), JSON,
                    kind + "-delete"));
            out.add(request("DELETE", k.collection() + "?labelSelector=fuzz%3Dno", null, new byte[0], JSON,
                    kind + "-deletecollection"));
        }
        out.addAll(subresources(n));
        return out;
    }

    private static List<FuzzRequest> subresources(int n) {
        String pods = "/api/v1/namespaces/" + NS + "/pods";
        String deployments = "/apis/apps/v1/namespaces/" + NS + "/deployments";
        return List.of(
                post("/api/v1/namespaces/" + NS + "/serviceaccounts/fixture/token", JSON, bytes("""
                        {"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"audiences":["x"],\
                        "expirationSeconds":3600}}"""), "token"),
                post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", JSON, bytes("""
                        {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":\
                        {"resourceAttributes":{"verb":"get","resource":"pods","namespace":"fuzz"}}}"""), "ssar"),
                post("/apis/authentication.k8s.io/v1/selfsubjectreviews", JSON, bytes("""
                        {"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"""), "ssr"),
                post(pods + "/f-" + n + "/binding", JSON, bytes("{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":"
                        + "{\"name\":\"f-" + n + "\"},\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}"), "binding"),
                post(pods + "/fixture/eviction", JSON, bytes("{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\","
                        + "\"metadata\":{\"name\":\"fixture\"}}"), "eviction"),
                request("GET", deployments + "/fixture/scale", null, new byte[0], JSON, "scale-get"),
                request("PUT", deployments + "/fixture/scale", JSON, bytes("{\"apiVersion\":\"autoscaling/v1\","
                        + "\"kind\":\"Scale\",\"metadata\":{\"name\":\"fixture\"},\"spec\":{\"replicas\":2}}"), JSON, "scale-put"),
                request("PATCH", deployments + "/fixture/scale", "application/merge-patch+json",
                        bytes("{\"spec\":{\"replicas\":3}}"), JSON, "scale-patch"),
                request("PATCH", deployments + "/fixture/status", "application/merge-patch+json",
                        bytes("{\"status\":{\"observedGeneration\":1}}"), JSON, "status-patch"),
                request("GET", pods + "/fixture/log", null, new byte[0], "*/*", "log"),
                request("GET", "/api/v1/namespaces?limit=5", null, new byte[0], JSON, "namespaces"),
                request("GET", "/apis", null, new byte[0], "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
                        "discovery"),
                request("GET", "/openapi/v3/api/v1", null, new byte[0], JSON, "openapi"),
                request("GET", "/version", null, new byte[0], JSON, "version"),
                request("GET", "/readyz?verbose", null, new byte[0], "*/*", "readyz"));
    }

    static FuzzRequest post(String path, String contentType, byte[] body, String origin) {
        return request("POST", path, contentType, body, JSON, origin);
    }

    static FuzzRequest request(String method, String path, String contentType, byte[] body, String accept, String origin) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        if (contentType != null) {
            headers.put("Content-Type", contentType);
        }
        if (accept != null) {
            headers.put("Accept", accept);
        }
        return new FuzzRequest(method, path, headers, body, FuzzRequest.Framing.CLIENT, origin);
    }
}
