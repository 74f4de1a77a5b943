package io.kapi.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A read-only view of an {@code apiextensions.k8s.io/v1} CustomResourceDefinition object: its names,
 * scope, versions with their schemas, subresources, printer columns and selectable fields, conversion,
 * and status conditions. Missing fields read as empty.
 */
public record Crd(ObjectNode object) {

    public static final String FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

    /** One entry of {@code spec.versions}. */
    public record Version(int index, JsonNode node) {

        public String name() {
            return node.path("name").asText("");
        }

        public boolean served() {
            return node.path("served").asBoolean(false);
        }

        public boolean storage() {
            return node.path("storage").asBoolean(false);
        }

        public boolean deprecated() {
            return node.path("deprecated").asBoolean(false);
        }

        /** The {@code openAPIV3Schema}, or null. */
        public JsonNode schema() {
            JsonNode s = node.path("schema").get("openAPIV3Schema");
            return s == null || s.isNull() ? null : s;
        }

        /** The {@code subresources} object, or a missing node. */
        public JsonNode subresources() {
            return node.path("subresources");
        }

        public boolean hasStatus() {
            return subresources().has("status") && !subresources().get("status").isNull();
        }

        /** The scale subresource, or null. */
        public JsonNode scale() {
            JsonNode s = subresources().get("scale");
            return s == null || s.isNull() ? null : s;
        }

        public JsonNode printerColumns() {
            return node.path("additionalPrinterColumns");
        }

        public JsonNode selectableFields() {
            return node.path("selectableFields");
        }
    }

    public ObjectMeta meta() {
        return ObjectMeta.of(object);
    }

    public String name() {
        return object.path("metadata").path("name").asText("");
    }

    public JsonNode spec() {
        return object.path("spec");
    }

    public String group() {
        return spec().path("group").asText("");
    }

    public boolean namespaced() {
        return spec().path("scope").asText("").equals("Namespaced");
    }

    public JsonNode names() {
        return spec().path("names");
    }

    public JsonNode acceptedNames() {
        return object.path("status").path("acceptedNames");
    }

    public List<Version> versions() {
        List<Version> out = new ArrayList<>();
        JsonNode vs = spec().path("versions");
        for (int i = 0; i < vs.size(); i++) {
            out.add(new Version(i, vs.get(i)));
        }
        return out;
    }

    public Optional<Version> version(String name) {
        return versions().stream().filter(v -> v.name().equals(name)).findFirst();
    }

    /** The name of the storage version, or "" when none is marked. */
    public String storageVersion() {
        return versions().stream().filter(Version::storage).map(Version::name).findFirst().orElse("");
    }

    /** The kind objects are stored as: the storage version and the accepted kind. */
    public GroupVersionKind storageKind() {
        return new GroupVersionKind(group(), storageVersion(), acceptedNames().path("kind").asText(""));
    }

    /** {@code None} (the default) or {@code Webhook}. */
    public String conversionStrategy() {
        return spec().path("conversion").path("strategy").asText("None");
    }

    public JsonNode webhook() {
        return spec().path("conversion").path("webhook");
    }

    public boolean preserveUnknownFields() {
        return spec().path("preserveUnknownFields").asBoolean(false);
    }

    /** The condition of {@code type}, or null. */
    public JsonNode condition(String type) {
        for (JsonNode c : object.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }

    public boolean isTrue(String type) {
        JsonNode c = condition(type);
        return c != null && c.path("status").asText().equals("True");
    }

    public boolean deleting() {
        return !meta().deletionTimestamp().isEmpty();
    }

    public boolean hasFinalizer(String finalizer) {
        for (JsonNode f : object.path("metadata").path("finalizers")) {
            if (f.asText().equals(finalizer)) {
                return true;
            }
        }
        return false;
    }

    public List<String> storedVersions() {
        List<String> out = new ArrayList<>();
        object.path("status").path("storedVersions").forEach(v -> out.add(v.asText()));
        return out;
    }
}
