package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kapi.apiextensions.Crd;
import io.kapi.apiextensions.conversion.CustomResourceConverter;
import io.kapi.apiextensions.conversion.NoneConversion;
import io.kapi.apiextensions.conversion.ObjectConversion;
import io.kapi.apiextensions.conversion.WebhookConversion;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.apply.FieldManagers;
import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import io.kapi.machinery.validation.SchemaValidator;
import io.kapi.metrics.AdmissionMetrics;
import io.kapi.registry.CustomKind;
import io.kapi.registry.ResourceDefinition;
import io.kapi.webhook.WebhookClient;
import java.util.ArrayList;
import java.util.HashMap;
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
    private final WebhookClient webhooks;

    /** @param webhooks how conversion webhooks are called */
    private final AdmissionMetrics metrics;

    public CustomResourceVersions(SchemaValidator metadata, FieldManagers fields, WebhookClient webhooks,
                                  AdmissionMetrics metrics) {
        this.metrics = metrics;
        this.metadata = metadata;
        this.fields = fields;
        this.webhooks = webhooks;
    }

    /** The definitions of every served version of {@code crd} (which must have accepted names). */
    public List<ResourceDefinition> of(Crd crd, boolean terminating) {
        List<ResourceDefinition> out = new ArrayList<>();
        GroupVersionKind stored = crd.storageKind();
        for (Crd.Version v : crd.versions()) {
            if (v.served()) {
                out.add(definition(crd, v, stored, terminating));
            }
        }
        return out;
    }

    private ResourceDefinition definition(Crd crd, Crd.Version v, GroupVersionKind stored, boolean terminating) {
        ApiResource api = resource(crd, v);
        StructuralSchema schema = v.schema() == null ? null : StructuralSchema.of(v.schema());
        ResourceFacts facts = new ResourceFacts(stored, crd.group() + "/" + api.name(), true, false,
                selectable(v), warning(crd, v));
        CustomResourceStrategy strategy = new CustomResourceStrategy(v.hasStatus(), schema, terminating);
        Converter converter = converter(crd, v, stored);
        CustomKind custom = new CustomKind(
                new CustomSchema(api.gvk(), crd.preserveUnknownFields() ? null : schema, metadata,
                        fields.forSchema(api.gvk(), v.schema())),
                v.printerColumns().isArray() ? v.printerColumns() : crd.object().arrayNode(), scale(v));
        return ResourceDefinition.custom(api, facts, strategy, converter,
                Map.of(OpenApiDefinition.name(api.gvk()), OpenApiDefinition.of(api.gvk(), v.schema())), custom);
    }

    /**
     * The version's converter: none when objects are only ever stored in this version (it is the only
     * one in {@code status.storedVersions}) and its schema has no defaults, so they are read as they
     * are; else defaults on read and the CRD's conversion strategy.
     */
    private Converter converter(Crd crd, Crd.Version v, GroupVersionKind stored) {
        Map<String, StructuralSchema> schemas = new HashMap<>();
        for (Crd.Version each : crd.versions()) {
            if (each.schema() != null) {
                schemas.put(crd.group() + "/" + each.name(), StructuralSchema.of(each.schema()));
            }
        }
        String served = crd.group() + "/" + v.name();
        List<String> storedVersions = crd.storedVersions();
        boolean onlyThis = v.name().equals(stored.version())
                && (storedVersions.isEmpty() || storedVersions.equals(List.of(v.name())));
        if (onlyThis && !hasDefaults(schemas.get(served))) {
            return Converter.NONE;
        }
        ObjectConversion conversion = crd.conversionStrategy().equals("Webhook")
                ? WebhookConversion.of(crd.webhook(), webhooks, crd.name(), metrics) : new NoneConversion();
        return new CustomResourceConverter(served, stored.apiVersion(), schemas, !crd.preserveUnknownFields(),
                conversion);
    }

    private static boolean hasDefaults(StructuralSchema s) {
        if (s == null) {
            return false;
        }
        if (s.defaultValue() != null) {
            return true;
        }
        return s.properties().values().stream().anyMatch(CustomResourceVersions::hasDefaults)
                || hasDefaults(s.items()) || hasDefaults(s.additionalProperties());
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
}
