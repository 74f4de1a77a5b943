package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.util.Base64;

/**
 * APIServices, as kube-aggregator's {@code ValidateAPIService} (create and update alike): the name is
 * {@code <version>.<group>}; the group a DNS subdomain (empty only for the legacy {@code v1}); the version a
 * DNS-1035 label; {@code groupPriorityMinimum} in 1..20000 and {@code versionPriority} in 1..1000; a local
 * APIService (no {@code service}) has neither {@code caBundle} nor {@code insecureSkipTLSVerify}; a Service
 * names its namespace and name, and {@code insecureSkipTLSVerify} excludes a {@code caBundle}. The name's
 * path-segment rule is the registry's, for every kind.
 */
public final class ApiServices {

    public static final KindValidator RULES = Rules.of(ApiServices::apiService);

    private ApiServices() {
    }

    private static void apiService(ObjectNode a, Errs e) {
        JsonNode spec = GoValues.at(a, "spec");
        String group = GoValues.text(spec, "group");
        String version = GoValues.text(spec, "version");
        String name = GoValues.text(a, "metadata", "name");
        String required = version + "." + group;
        if (!name.isEmpty() && Identifiers.pathSegment(name, false).isEmpty() && !name.equals(required)) {
            e.invalidString("metadata.name", name, "must be `spec.version+\".\"+spec.group`: " + GoStrings.quote(required));
        }
        if (group.isEmpty() && !version.equals("v1")) {
            e.required("spec.group", "only v1 may have an empty group and it better be legacy kube");
        }
        if (!group.isEmpty()) {
            e.each("spec.group", group, Identifiers.dns1123Subdomain(group));
        }
        e.each("spec.version", version, Identifiers.dns1035Label(version));
        long groupPriority = spec.path("groupPriorityMinimum").asLong(0);
        if (groupPriority <= 0 || groupPriority > 20000) {
            e.invalid("spec.groupPriorityMinimum", String.valueOf(groupPriority), "must be positive and less than 20000");
        }
        long versionPriority = spec.path("versionPriority").asLong(0);
        if (versionPriority <= 0 || versionPriority > 1000) {
            e.invalid("spec.versionPriority", String.valueOf(versionPriority), "must be positive and less than 1000");
        }
        int caBundle = caBundleBytes(spec);
        boolean insecure = spec.path("insecureSkipTLSVerify").asBoolean(false);
        JsonNode service = GoValues.at(spec, "service");
        if (GoValues.isUnset(service)) {
            if (caBundle != 0) {
                e.invalidString("spec.caBundle", caBundle + " bytes", "local APIServices may not have a caBundle");
            }
            if (insecure) {
                e.invalid("spec.insecureSkipTLSVerify", "true", "local APIServices may not have insecureSkipTLSVerify");
            }
            return;
        }
        if (GoValues.text(service, "namespace").isEmpty()) {
            e.required("spec.service.namespace", "");
        }
        if (GoValues.text(service, "name").isEmpty()) {
            e.required("spec.service.name", "");
        }
        if (insecure && caBundle > 0) {
            e.invalid("spec.insecureSkipTLSVerify", "true", "may not be true if caBundle is present");
        }
    }

    /** The decoded length of {@code caBundle} (base64 bytes, as the API carries them). */
    private static int caBundleBytes(JsonNode spec) {
        String text = GoValues.text(spec, "caBundle");
        try {
            return Base64.getDecoder().decode(text).length;
        } catch (IllegalArgumentException ex) {
            return text.length();
        }
    }
}
