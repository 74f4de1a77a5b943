package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinKinds;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.io.UncheckedIOException;
import java.util.List;

/** Test helpers: objects from YAML, validation results as kube prints them ({@code field: message}). */
final class Fixtures {

    private Fixtures() {
    }

    static ObjectNode yaml(String text) {
        try {
            return (ObjectNode) Json.yaml().readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static GroupVersionKind gvk(ObjectNode o) {
        String apiVersion = o.path("apiVersion").asText();
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? new GroupVersionKind("", apiVersion, o.path("kind").asText())
                : new GroupVersionKind(apiVersion.substring(0, slash), apiVersion.substring(slash + 1),
                        o.path("kind").asText());
    }

    static List<String> create(String yaml) {
        ObjectNode o = yaml(yaml);
        return strings(BuiltinKinds.of(gvk(o)).validation().validate(o));
    }

    static List<String> update(String yaml, String oldYaml) {
        ObjectNode o = yaml(yaml);
        return strings(BuiltinKinds.of(gvk(o)).validation().validateUpdate(o, yaml(oldYaml)));
    }

    static List<String> strings(List<FieldError> errors) {
        return errors.stream().map(FieldError::toString).toList();
    }

    static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: p, namespace: default}
            spec:
              restartPolicy: Always
              dnsPolicy: ClusterFirst
              terminationGracePeriodSeconds: 30
              containers:
              - name: app
                image: nginx:1.27
                imagePullPolicy: IfNotPresent
                terminationMessagePolicy: File
            """;

    static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: default}
            spec:
              replicas: 2
              selector: {matchLabels: {app: web}}
              strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%, maxSurge: 25%}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers: [{name: web, image: nginx}]
            """;
}
