package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import io.kapi.machinery.cel.DeviceCel;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The device selectors and opaque device configurations DeviceClasses, ResourceClaims and their templates
 * share, as kube 1.34's {@code validateSelectorSlice} and {@code validateDeviceConfiguration}: every
 * selector needs {@code cel}, whose expression is at most 10 KiB and compiles in the device environment to
 * a boolean ({@code compilation failed: ...}); every configuration needs {@code opaque} with a driver name
 * and JSON-object parameters of at most 10 KiB. Lists longer than their limit are reported after their items.
 */
final class DeviceSelectors {

    static final int SELECTORS_MAX = 32;
    static final int CONFIG_MAX = 32;
    private static final int EXPRESSION_MAX = 10 * 1024;
    private static final int PARAMETERS_MAX = 10 * 1024;
    private static final java.util.regex.Pattern SEMVER_CALL = java.util.regex.Pattern.compile(
            "\\b(semver|isSemver|isGreaterThan|isLessThan|compareTo|major|minor|patch)\\s*\\(");

    private DeviceSelectors() {
    }

    /**
     * {@code validateSelectorSlice} of the list at {@code path}. {@code stored} (the expressions were
     * accepted before) is kube's switch to the lenient environment of stored expressions; Kapi has one
     * environment, so it changes nothing here but is kept to read as kube does.
     */
    static void selectors(JsonNode list, String path, boolean stored, Errs e) {
        List<JsonNode> items = GoValues.items(list);
        for (int i = 0; i < items.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode cel = items.get(i).get("cel");
            if (GoValues.isUnset(cel)) {
                e.required(p + ".cel", "");
            } else {
                expression(GoValues.text(cel, "expression"), p + ".cel.expression", e);
            }
        }
        if (items.size() > SELECTORS_MAX) {
            e.tooMany(path, items.size(), SELECTORS_MAX);
        }
    }

    /** {@code validateCELSelector}: too long (not compiled), or a compile error, or not a boolean. */
    private static void expression(String source, String path, Errs e) {
        if (StorageKinds.bytes(source) > EXPRESSION_MAX) {
            e.tooLong(path, EXPRESSION_MAX);
            return;
        }
        CelExpression compiled;
        try {
            compiled = DeviceCel.selectors().compile(source);
        } catch (CelError err) {
            if (err.getMessage().startsWith("Syntax error") || !usesSemver(source)) {
                e.invalidString(path, source, err.getMessage());
            }
            return;
        }
        String type = compiled.resultType();
        if (!type.equals("bool") && !type.equals("dyn")) {
            e.invalidString(path, source, "must evaluate to bool or the unknown type, not " + type);
        }
    }

    /**
     * Whether {@code source} may call kube's semver library ({@code semver("1.0.0")}, {@code isSemver},
     * {@code isGreaterThan}, ...), which Kapi's CEL environment lacks: a type error in such an expression
     * may be Kapi's own, so only syntax errors are reported for it (a valid selector must not be refused).
     */
    private static boolean usesSemver(String source) {
        return SEMVER_CALL.matcher(source).find();
    }

    /** {@code validateDeviceConfiguration} of one configuration at {@code path}: opaque is required. */
    static void configuration(JsonNode config, String path, boolean stored, Errs e) {
        JsonNode opaque = GoValues.at(config, "opaque");
        if (GoValues.isUnset(opaque)) {
            e.required(path + ".opaque", "");
            return;
        }
        DraNames.driver(GoValues.text(opaque, "driver"), path + ".opaque.driver", e);
        parameters(opaque.get("parameters"), path + ".opaque.parameters", stored, e);
    }

    /**
     * {@code validateRawExtension}: required (JSON null too), at most 10 KiB on create (stored ones are
     * grandfathered), a JSON object. The size is that of the compact JSON, as the value is kept.
     */
    private static void parameters(JsonNode raw, String path, boolean stored, Errs e) {
        if (GoValues.isUnset(raw)) {
            e.required(path, "");
        } else if (!stored && raw.toString().getBytes(StandardCharsets.UTF_8).length > PARAMETERS_MAX) {
            e.tooLong(path, PARAMETERS_MAX);
        } else if (!raw.isObject()) {
            e.invalidString(path, "<value omitted>", "parameters must be a valid JSON object");
        }
    }
}
