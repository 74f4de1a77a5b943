package io.kapi.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.schema.FieldPaths;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.validation.Identifiers;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The parts of a CRD's validation that are not about its schema, worded as kube-apiserver's: names,
 * printer columns, subresources, selectable fields, deprecation warnings, conversion and its webhook.
 */
final class CrdParts {

    private static final List<String> COLUMN_TYPES = List.of("boolean", "date", "integer", "number", "string");
    private static final List<String> COLUMN_FORMATS = List.of("byte", "date", "date-time", "double", "float", "int32",
            "int64", "password");
    static final int MAX_SELECTABLE_FIELDS = 8;

    private CrdParts() {
    }

    /** kube's {@code ValidateCustomResourceDefinitionNames} (of {@code spec.names} or {@code status.acceptedNames}). */
    static void names(JsonNode names, String path, List<FieldError> errors) {
        label(names, "plural", path, false, errors);
        label(names, "singular", path, false, errors);
        label(names, "kind", path, true, errors);
        label(names, "listKind", path, true, errors);
        JsonNode shortNames = names.path("shortNames");
        for (int i = 0; i < shortNames.size(); i++) {
            List<String> errs = Identifiers.dns1035Label(shortNames.get(i).asText());
            if (!errs.isEmpty()) {
                errors.add(FieldError.invalid(path + ".shortNames[" + i + "]", GoStrings.quote(shortNames.get(i).asText()),
                        String.join(",", errs)));
            }
        }
        String kind = names.path("kind").asText("");
        if (!kind.isEmpty() && kind.equals(names.path("listKind").asText(""))) {
            errors.add(FieldError.invalid(path + ".listKind", GoStrings.quote(kind), "kind and listKind may not be the same"));
        }
        JsonNode categories = names.path("categories");
        for (int i = 0; i < categories.size(); i++) {
            List<String> errs = Identifiers.dns1035Label(categories.get(i).asText());
            if (!errs.isEmpty()) {
                errors.add(FieldError.invalid(path + ".categories[" + i + "]", GoStrings.quote(categories.get(i).asText()),
                        String.join(",", errs)));
            }
        }
    }

    private static void label(JsonNode names, String field, String path, boolean mixedCase, List<FieldError> errors) {
        String value = names.path(field).asText("");
        if (value.isEmpty()) {
            return;
        }
        List<String> errs = Identifiers.dns1035Label(mixedCase ? value.toLowerCase(Locale.ROOT) : value);
        if (!errs.isEmpty()) {
            errors.add(FieldError.invalid(path + "." + field, GoStrings.quote(value),
                    (mixedCase ? "may have mixed case, but should otherwise match: " : "") + String.join(",", errs)));
        }
    }

    /** kube's {@code ValidateCustomResourceColumnDefinition}. */
    static void column(JsonNode col, String path, List<FieldError> errors) {
        if (col.path("name").asText("").isEmpty()) {
            errors.add(FieldError.required(path + ".name", ""));
        }
        String type = col.path("type").asText("");
        String types = "must be one of " + String.join(",", COLUMN_TYPES);
        if (type.isEmpty()) {
            errors.add(FieldError.required(path + ".type", types));
        } else if (!COLUMN_TYPES.contains(type)) {
            errors.add(FieldError.invalid(path + ".type", GoStrings.quote(type), types));
        }
        String format = col.path("format").asText("");
        if (!format.isEmpty() && !COLUMN_FORMATS.contains(format)) {
            errors.add(FieldError.invalid(path + ".format", GoStrings.quote(format), "must be one of " + String.join(",", COLUMN_FORMATS)));
        }
        String jsonPath = col.path("jsonPath").asText("");
        if (jsonPath.isEmpty()) {
            errors.add(FieldError.required(path + ".JSONPath", ""));
        } else {
            simpleJsonPath(jsonPath, path + ".JSONPath", errors);
        }
    }

    /** kube's {@code validateSimpleJSONPath}; returns whether it was valid. */
    static boolean simpleJsonPath(String s, String path, List<FieldError> errors) {
        if (s.isEmpty()) {
            errors.add(FieldError.invalid(path, "\"\"", "must not be empty"));
            return false;
        }
        if (s.charAt(0) != '.') {
            errors.add(FieldError.invalid(path, GoStrings.quote(s), "must be a simple json path starting with ."));
            return false;
        }
        return true;
    }

    /** kube's {@code ValidateCustomResourceDefinitionSubresources}. */
    static void subresources(JsonNode subresources, String path, List<FieldError> errors) {
        JsonNode scale = subresources.get("scale");
        if (scale == null || scale.isNull()) {
            return;
        }
        replicasPath(scale, "specReplicasPath", ".spec.", "should be a json path under .spec", path, errors);
        replicasPath(scale, "statusReplicasPath", ".status.", "should be a json path under .status", path, errors);
        String selector = scale.path("labelSelectorPath").asText("");
        if (!selector.isEmpty() && simpleJsonPath(selector, path + ".scale.labelSelectorPath", errors)
                && !selector.startsWith(".spec.") && !selector.startsWith(".status.")) {
            errors.add(FieldError.invalid(path + ".scale.labelSelectorPath", GoStrings.quote(selector),
                    "should be a json path under either .spec or .status"));
        }
    }

    private static void replicasPath(JsonNode scale, String field, String prefix, String detail, String path,
                                     List<FieldError> errors) {
        String value = scale.path(field).asText("");
        String at = path + ".scale." + field;
        if (value.isEmpty()) {
            errors.add(FieldError.required(at, ""));
        } else if (simpleJsonPath(value, at, errors) && !value.startsWith(prefix)) {
            errors.add(FieldError.invalid(at, GoStrings.quote(value), detail));
        }
    }

    /** kube's {@code validateDeprecationWarning}. */
    static void deprecationWarning(JsonNode version, String path, List<FieldError> errors) {
        JsonNode warning = version.get("deprecationWarning");
        if (warning == null || warning.isNull()) {
            return;
        }
        String w = warning.asText();
        String at = path + ".deprecationWarning";
        if (!version.path("deprecated").asBoolean(false)) {
            errors.add(FieldError.invalid(at, GoStrings.quote(w), "can only be set for deprecated versions"));
            return;
        }
        if (w.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 256) {
            errors.add(FieldError.invalid(at, GoStrings.quote(w), "must be <= 256 characters long"));
        }
        if (w.isEmpty()) {
            errors.add(FieldError.invalid(at, GoStrings.quote(w), "must not be an empty string"));
        }
        for (int i = 0; i < w.length(); i++) {
            if (Character.isISOControl(w.charAt(i))) {
                errors.add(FieldError.invalid(at, GoStrings.quote(w),
                        "must only contain printable UTF-8 characters; non-printable character found at index " + i));
                break;
            }
        }
    }

    /** kube's {@code ValidateCustomResourceSelectableFields}. */
    static void selectableFields(JsonNode fields, StructuralSchema schema, String path, List<FieldError> errors) {
        Set<String> unique = new HashSet<>();
        for (int i = 0; i < fields.size(); i++) {
            String jsonPath = fields.get(i).path("jsonPath").asText("");
            String at = path + "[" + i + "].jsonPath";
            if (jsonPath.isEmpty()) {
                errors.add(FieldError.required(at, ""));
                continue;
            }
            FieldPaths.Resolved found;
            try {
                found = FieldPaths.resolve(jsonPath, schema, false);
            } catch (IllegalArgumentException e) {
                errors.add(FieldError.invalid(at, GoStrings.quote(jsonPath), "is an invalid path: " + e.getMessage()));
                continue;
            }
            if ("metadata".equals(found.root())) {
                errors.add(FieldError.invalid(at, GoStrings.quote(jsonPath), "must not point to fields in metadata"));
            }
            if (!List.of("string", "boolean", "integer").contains(found.schema().type())) {
                errors.add(FieldError.invalid(at, GoStrings.quote(jsonPath),
                        "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."));
            }
            if (!unique.add(jsonPath)) {
                errors.add(new FieldError(FieldError.Type.DUPLICATE, at, GoStrings.quote(jsonPath), null));
            }
        }
        if (unique.size() > MAX_SELECTABLE_FIELDS) {
            errors.add(new FieldError(FieldError.Type.TOO_MANY, path, Integer.toString(unique.size()),
                    "must have at most " + MAX_SELECTABLE_FIELDS + " items"));
        }
    }

    /**
     * kube's {@code validateCustomResourceConversion} of {@code spec.conversion}, with the internal
     * version's paths ({@code spec.conversion.webhookClientConfig}, {@code spec.conversion.conversionReviewVersions}).
     */
    static void conversion(JsonNode conversion, boolean requireRecognizedVersion, boolean allowInvalidCaBundle,
                           List<FieldError> errors) {
        if (conversion == null || conversion.isMissingNode() || conversion.isNull()) {
            return;
        }
        String path = "spec.conversion";
        String strategy = conversion.path("strategy").asText("");
        if (strategy.isEmpty()) {
            errors.add(FieldError.required(path + ".strategy", ""));
        } else if (!strategy.equals("None") && !strategy.equals("Webhook")) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, path + ".strategy", GoStrings.quote(strategy),
                    SchemaRules.supported(List.of("None", "Webhook"))));
        }
        JsonNode webhook = conversion.path("webhook");
        JsonNode clientConfig = webhook.get("clientConfig");
        JsonNode reviewVersions = webhook.path("conversionReviewVersions");
        if (strategy.equals("Webhook")) {
            if (clientConfig == null || clientConfig.isNull()) {
                errors.add(FieldError.required(path + ".webhookClientConfig", "required when strategy is set to Webhook"));
            } else {
                clientConfig(clientConfig, path + ".webhookClientConfig", allowInvalidCaBundle, errors);
            }
            reviewVersions(reviewVersions, requireRecognizedVersion, path + ".conversionReviewVersions", errors);
        } else {
            if (clientConfig != null && !clientConfig.isNull()) {
                errors.add(FieldError.forbidden(path + ".webhookClientConfig", "should not be set when strategy is not set to Webhook"));
            }
            if (reviewVersions.isArray() && !reviewVersions.isEmpty()) {
                errors.add(FieldError.forbidden(path + ".conversionReviewVersions", "should not be set when strategy is not set to Webhook"));
            }
        }
    }

    private static void clientConfig(JsonNode cc, String path, boolean allowInvalidCaBundle, List<FieldError> errors) {
        boolean hasUrl = cc.hasNonNull("url");
        boolean hasService = cc.hasNonNull("service");
        if (hasUrl == hasService) {
            errors.add(FieldError.required(path, "exactly one of url or service is required"));
        } else if (hasUrl) {
            webhookUrl(cc.get("url").asText(), path + ".url", errors);
        } else {
            webhookService(cc.get("service"), path + ".service", errors);
        }
        String caBundle = cc.path("caBundle").asText("");
        if (!caBundle.isEmpty() && !allowInvalidCaBundle && !validCaBundle(caBundle)) {
            errors.add(FieldError.invalid(path + ".caBundle", GoStrings.quote(caBundle), "unable to load root certificates: unable to parse bytes as PEM block"));
        }
    }

    /** Whether a caBundle (base64 in JSON) holds at least one PEM certificate. */
    static boolean validCaBundle(String base64) {
        try {
            String pem = new String(Base64.getDecoder().decode(base64), java.nio.charset.StandardCharsets.UTF_8);
            return pem.contains("-----BEGIN CERTIFICATE-----");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** kube's {@code webhook.ValidateWebhookURL} with https required. */
    static void webhookUrl(String url, String path, List<FieldError> errors) {
        String form = "; desired format: https://host[/path]";
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            errors.add(FieldError.required(path, "url must be a valid URL: " + e.getMessage() + form));
            return;
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme();
        if (!scheme.equals("https")) {
            errors.add(FieldError.invalid(path, GoStrings.quote(scheme), "'https' is the only allowed URL scheme" + form));
        }
        String host = u.getRawAuthority() == null ? "" : u.getRawAuthority().replaceFirst("^.*@", "");
        if (host.isEmpty()) {
            errors.add(FieldError.invalid(path, GoStrings.quote(host), "host must be specified" + form));
        }
        if (u.getRawUserInfo() != null) {
            errors.add(FieldError.invalid(path, GoStrings.quote(u.getRawUserInfo()), "user information is not permitted in the URL"));
        }
        if (u.getRawFragment() != null && !u.getRawFragment().isEmpty()) {
            errors.add(FieldError.invalid(path, GoStrings.quote(u.getRawFragment()), "fragments are not permitted in the URL"));
        }
        if (u.getRawQuery() != null && !u.getRawQuery().isEmpty()) {
            errors.add(FieldError.invalid(path, GoStrings.quote(u.getRawQuery()), "query parameters are not permitted in the URL"));
        }
    }

    /** kube's {@code webhook.ValidateWebhookService}. */
    static void webhookService(JsonNode service, String path, List<FieldError> errors) {
        if (service.path("name").asText("").isEmpty()) {
            errors.add(FieldError.required(path + ".name", "service name is required"));
        }
        if (service.path("namespace").asText("").isEmpty()) {
            errors.add(FieldError.required(path + ".namespace", "service namespace is required"));
        }
        long port = service.path("port").asLong(443);
        if (port < 1 || port > 65535) {
            errors.add(FieldError.invalid(path + ".port", Long.toString(port), "port is not valid: must be between 1 and 65535, inclusive"));
        }
        JsonNode p = service.get("path");
        if (p == null || p.isNull()) {
            return;
        }
        String urlPath = p.asText();
        if (urlPath.equals("/") || urlPath.isEmpty()) {
            return;
        }
        if (urlPath.equals("//")) {
            errors.add(FieldError.invalid(path + ".path", GoStrings.quote(urlPath), "segment[0] may not be empty"));
            return;
        }
        if (!urlPath.startsWith("/")) {
            errors.add(FieldError.invalid(path + ".path", GoStrings.quote(urlPath), "must start with a '/'"));
        }
        String check = urlPath.substring(1);
        if (check.endsWith("/")) {
            check = check.substring(0, check.length() - 1);
        }
        String[] steps = check.split("/", -1);
        for (int i = 0; i < steps.length; i++) {
            if (steps[i].isEmpty()) {
                errors.add(FieldError.invalid(path + ".path", GoStrings.quote(urlPath), "segment[" + i + "] may not be empty"));
                continue;
            }
            for (String failure : Identifiers.dns1123Subdomain(steps[i])) {
                errors.add(FieldError.invalid(path + ".path", GoStrings.quote(urlPath), "segment[" + i + "]: " + failure));
            }
        }
    }

    private static void reviewVersions(JsonNode versions, boolean requireRecognized, String path, List<FieldError> errors) {
        if (!versions.isArray() || versions.isEmpty()) {
            errors.add(FieldError.required(path, ""));
            return;
        }
        Set<String> seen = new HashSet<>();
        boolean accepted = false;
        for (int i = 0; i < versions.size(); i++) {
            String v = versions.get(i).asText();
            if (!seen.add(v)) {
                errors.add(FieldError.invalid(path + "[" + i + "]", GoStrings.quote(v), "duplicate version"));
                continue;
            }
            for (String e : Identifiers.dns1035Label(v)) {
                errors.add(FieldError.invalid(path + "[" + i + "]", GoStrings.quote(v), e));
            }
            accepted |= v.equals("v1") || v.equals("v1beta1");
        }
        if (requireRecognized && !accepted) {
            List<String> all = new ArrayList<>();
            versions.forEach(v -> all.add(v.asText()));
            errors.add(FieldError.invalid(path, GoStructs.strings(versions), "must include at least one of v1, v1beta1"));
        }
    }
}
