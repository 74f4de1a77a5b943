package io.kapi.authz;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.Json;
import io.kapi.machinery.validation.Identifiers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The structured authorization configuration of {@code --authorization-config}
 * ({@code apiserver.config.k8s.io/v1} or {@code v1beta1} {@code AuthorizationConfiguration}): the
 * authorizers of the chain in order, each a type (Node, RBAC, Webhook, AlwaysAllow, AlwaysDeny) and a
 * unique name; webhooks (the only repeatable type) with their options. Read and validated as
 * kube-apiserver's {@code LoadAndValidateFile} does, with its field error wording; kube's defaults
 * filled in.
 */
public record AuthorizationConfiguration(List<Entry> authorizers) {

    /** kube's authorization mode names, the known types (sorted, as its "supported values" lists them). */
    static final List<String> TYPES = List.of("ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook");
    private static final Set<String> VERSIONS = Set.of("apiserver.config.k8s.io/v1",
            "apiserver.config.k8s.io/v1beta1", "apiserver.config.k8s.io/v1alpha1");

    /** One authorizer of the chain; {@code webhook} is null unless the type is Webhook. */
    public record Entry(String type, String name, WebhookOptions webhook) {
    }

    public AuthorizationConfiguration {
        authorizers = List.copyOf(authorizers);
    }

    /**
     * Reads and validates {@code file} (YAML or JSON).
     *
     * @throws IllegalArgumentException with kube's wording of what is wrong (every field error, joined)
     */
    public static AuthorizationConfiguration read(Path file) {
        JsonNode doc;
        try {
            doc = Json.yaml().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("failed to read authorization config file \"%s\": %s"
                    .formatted(file, e.getMessage()));
        }
        if (doc == null || !doc.isObject()) {
            throw new IllegalArgumentException("failed to decode authorization config file \"%s\": not an object"
                    .formatted(file));
        }
        String apiVersion = doc.path("apiVersion").asText("");
        String kind = doc.path("kind").asText("");
        if (!VERSIONS.contains(apiVersion) || !kind.equals("AuthorizationConfiguration")) {
            throw new IllegalArgumentException("failed to decode authorization config file \"%s\": no kind \"%s\" is "
                    + "registered for version \"%s\"".formatted(file, kind, apiVersion));
        }
        return parse(doc);
    }

    /** Validates a decoded document. */
    static AuthorizationConfiguration parse(JsonNode doc) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode list = doc.path("authorizers");
        if (!list.isArray() || list.isEmpty()) {
            errors.add(FieldError.required("authorizers", "at least one authorization mode must be defined"));
        }
        Set<String> types = new HashSet<>();
        Set<String> names = new HashSet<>();
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Entry e = entry("authorizers[" + i + "]", list.get(i), types, names, errors);
            if (e != null) {
                entries.add(e);
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(aggregate(errors));
        }
        return new AuthorizationConfiguration(entries);
    }

    private static Entry entry(String at, JsonNode a, Set<String> types, Set<String> names, List<FieldError> errors) {
        String type = a.path("type").asText("");
        if (type.isEmpty()) {
            errors.add(FieldError.required(at + ".type", ""));
            return null;
        }
        if (!TYPES.contains(type)) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, at + ".type", quote(type), "supported values: "
                    + String.join(", ", TYPES.stream().map(AuthorizationConfiguration::quote).toList())));
            return null;
        }
        if (!types.add(type) && !type.equals("Webhook")) {
            errors.add(new FieldError(FieldError.Type.DUPLICATE, at + ".type", quote(type), ""));
            return null;
        }
        String name = a.path("name").asText("");
        if (name.isEmpty()) {
            errors.add(FieldError.required(at + ".name", ""));
        } else if (names.contains(name)) {
            errors.add(new FieldError(FieldError.Type.DUPLICATE, at + ".name", quote(name), ""));
        } else if (!Identifiers.dns1123Subdomain(name).isEmpty()) {
            errors.add(FieldError.invalid(at + ".name", quote(name), "authorizer name is invalid: "
                    + String.join(", ", Identifiers.dns1123Subdomain(name))));
        }
        names.add(name);
        JsonNode webhook = a.path("webhook");
        boolean hasWebhook = webhook.isObject();
        if (type.equals("Webhook")) {
            if (!hasWebhook) {
                errors.add(FieldError.required(at + ".webhook", "required when type=Webhook"));
                return null;
            }
            return new Entry(type, name, WebhookOptions.parse(at, webhook, errors));
        }
        if (hasWebhook) {
            errors.add(FieldError.invalid(at + ".webhook", "\"non-null\"", "may only be specified when type=Webhook"));
        }
        return new Entry(type, name, null);
    }

    static String quote(String s) {
        return io.kapi.machinery.GoStrings.quote(s);
    }

    /** kube's {@code ToAggregate().Error()}: one error alone, several in brackets. */
    private static String aggregate(List<FieldError> errors) {
        List<String> messages = errors.stream().map(FieldError::toString).toList();
        return messages.size() == 1 ? messages.getFirst() : "[" + String.join(", ", messages) + "]";
    }
}
