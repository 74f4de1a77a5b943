package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.Crd;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.apply.FieldManagers;
import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import io.kapi.machinery.validation.SchemaValidator;
import io.kapi.registry.CustomKind;
import io.kapi.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The resource definitions a CustomResourceDefinition serves: one per served version, named by the
 * CRD's accepted names, stored under {@code /registry/<group>/<plural>/} in its storage version, with
 * the version's schema (decoding, validation, field manager, OpenAPI definition), printer columns,
 * status and scale subresources, selectable fields and deprecation warning.
 */
public final class CustomResourceVersions {

    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list",
            "patch", "update", "watch");
    private static final List<String> SUBRESOURCE_VERBS = List.of("get", "patch", "update");

    private final SchemaValidator metadata;
    private final FieldManagers fields;

    public CustomResourceVersions(SchemaValidator metadata, FieldManagers fields) {
        this.metadata = metadata;
        this.fields = fields;
    }

    /** The definitions of every served version of {@code crd} (which must have accepted names). */
    public List<ResourceDefinition> of(Crd crd, boolean terminating) {
        List<ResourceDefinition> out = new ArrayList<>();
        GroupVersionKind stored = crd.storageKind();
        boolean converts = crd.versions().stream().anyMatch(v -> v.served() && !v.name().equals(stored.version()));
        for (Crd.Version v : crd.versions()) {
            if (v.served()) {
                out.add(definition(crd, v, stored, converts, terminating));
            }
        }
        return out;
    }

    private ResourceDefinition definition(Crd crd, Crd.Version v, GroupVersionKind stored, boolean converts,
                                          boolean terminating) {
        ApiResource api = resource(crd, v);
        StructuralSchema schema = v.schema() == null ? null : StructuralSchema.of(v.schema());
        ResourceFacts facts = new ResourceFacts(stored, crd.group() + "/" + api.name(), true, false,
                selectable(v));
        CustomResourceStrategy strategy = new CustomResourceStrategy(v.hasStatus(), schema, terminating);
        Converter converter = converts ? new ApiVersionConverter(api.gvk().apiVersion(), stored.apiVersion(), schema)
                : Converter.NONE;
        CustomKind custom = new CustomKind(
                new CustomSchema(api.gvk(), crd.preserveUnknownFields() ? null : schema, metadata,
                        fields.forSchema(api.gvk(), v.schema())),
                v.printerColumns().isArray() ? v.printerColumns() : crd.object().arrayNode(), scale(v), warning(crd, v));
        return ResourceDefinition.custom(api, facts, strategy, converter,
                Map.of(OpenApiDefinition.name(api.gvk()), OpenApiDefinition.of(api.gvk(), v.schema())), custom);
    }

    private static ApiResource resource(Crd crd, Crd.Version v) {
        JsonNode names = crd.acceptedNames();
        String kind = names.path("kind").asText();
        List<ApiResource.Subresource> subresources = new ArrayList<>();
        if (v.hasStatus()) {
            subresources.add(new ApiResource.Subresource("status", crd.group(), v.name(), kind, SUBRESOURCE_VERBS));
        }
        if (v.scale() != null) {
            subresources.add(new ApiResource.Subresource("scale", "autoscaling", "v1", "Scale", SUBRESOURCE_VERBS));
        }
        return new ApiResource(crd.group(), v.name(), names.path("plural").asText(),
                names.path("singular").asText(), kind, crd.namespaced(), VERBS, strings(names.path("shortNames")),
                strings(names.path("categories")), subresources);
    }

    private static List<ResourceFacts.SelectableField> selectable(Crd.Version v) {
        List<ResourceFacts.SelectableField> out = new ArrayList<>();
        for (JsonNode f : v.selectableFields()) {
            String path = f.path("jsonPath").asText().substring(1);
            out.add(new ResourceFacts.SelectableField(path, "text", null));
        }
        return out;
    }

    private static CustomKind.Scale scale(Crd.Version v) {
        JsonNode s = v.scale();
        return s == null ? null : new CustomKind.Scale(s.path("specReplicasPath").asText(),
                s.path("statusReplicasPath").asText(), s.path("labelSelectorPath").asText(null));
    }

    /** kube's default: {@code group/version Kind is deprecated}, unless the version words its own. */
    private static String warning(Crd crd, Crd.Version v) {
        if (!v.deprecated()) {
            return null;
        }
        JsonNode own = v.node().get("deprecationWarning");
        if (own != null && own.isTextual()) {
            return own.asText();
        }
        return crd.group() + "/" + v.name() + " " + crd.acceptedNames().path("kind").asText() + " is deprecated";
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array instanceof ArrayNode a) {
            a.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    /** Conversion strategy {@code None}: only apiVersion changes; reads get the served version's defaults. */
    private record ApiVersionConverter(String served, String stored, StructuralSchema schema) implements Converter {

        @Override
        public ObjectNode toStorage(ObjectNode object) {
            ObjectNode copy = object.deepCopy();
            copy.put("apiVersion", stored);
            return copy;
        }

        @Override
        public ObjectNode fromStorage(ObjectNode object) {
            ObjectNode copy = object.deepCopy();
            copy.put("apiVersion", served);
            if (schema != null) {
                io.kapi.apiextensions.schema.Defaulting.apply(copy, schema);
            }
            return copy;
        }
    }
}
