package io.kapi.registry.table;

/**
 * Where a column's description comes from. kube-apiserver takes most of them from the Go types' Swagger docs;
 * Kapi reads the same text from the OpenAPI definitions (the endpoint layer's table convertor).
 */
public sealed interface Doc {

    /** The description of property {@code property} of the OpenAPI definition {@code definition}. */
    record Field(String definition, String property) implements Doc {
    }

    /** A description kube writes out literally. */
    record Text(String text) implements Doc {
    }

    static Doc field(String definition, String property) {
        return new Field(definition, property);
    }

    static Doc text(String text) {
        return new Text(text);
    }

    /** The description of a field of a core/v1 type, e.g. {@code core("PodStatus", "podIP")}. */
    static Doc core(String type, String property) {
        return field("io.k8s.api.core.v1." + type, property);
    }

    static Doc meta(String property) {
        return field("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", property);
    }

    /** A field of {@code io.k8s.api.{group}.{version}.{type}}, e.g. {@code api("apps.v1", "DeploymentStatus", "updatedReplicas")}. */
    static Doc api(String groupVersion, String type, String property) {
        return field("io.k8s.api." + groupVersion + "." + type, property);
    }
}
