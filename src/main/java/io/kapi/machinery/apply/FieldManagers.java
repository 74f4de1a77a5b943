package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.conversion.VersionConversions;
import io.kapi.machinery.schema.Schemas;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The field managers of a server, one per kind, built from the schemas on first use; plus kube's
 * rules for the {@code fieldManager} option.
 */
public final class FieldManagers {

    /** kube's {@code FieldManagerMaxLength}, in bytes. */
    public static final int MAX_MANAGER_LENGTH = 128;

    private final TypeResolver types;
    private final Map<GroupVersionKind, FieldManager> managers = new ConcurrentHashMap<>();
    private volatile VersionConversions conversions = VersionConversions.NONE;

    public FieldManagers(Schemas schemas) {
        this.types = new TypeResolver(schemas);
    }

    /**
     * How objects of one served version read in another, for the managed fields of kinds served in
     * several versions (set once the resources are known; until then none convert).
     */
    public void convertThrough(VersionConversions versionConversions) {
        this.conversions = versionConversions;
    }

    /**
     * The field manager of a built-in kind. A kind without a schema gets an untyped one (maps merge
     * key by key, lists are replaced whole), as kube does for objects without a structural schema.
     */
    public FieldManager forKind(GroupVersionKind gvk) {
        return managers.computeIfAbsent(gvk, k -> {
            SchemaType t = types.forKind(k);
            OtherVersions versions = new OtherVersions(k.kind(), () -> conversions, other -> forKind(other).type());
            return new FieldManager(k, t != null ? t : types.forSchema(null), FieldSet.EMPTY, versions);
        });
    }

    /** The field manager of a custom kind, typed by its OpenAPI v3 schema (null: untyped); not cached. */
    public FieldManager forSchema(GroupVersionKind gvk, JsonNode openApiV3Schema) {
        return new FieldManager(gvk, types.forSchema(openApiV3Schema), FieldSet.EMPTY, OtherVersions.NONE);
    }

    /**
     * The manager of a request: its {@code fieldManager} option, else the start of its User-Agent up
     * to the first {@code /} without unprintable characters, at most 128 bytes
     * ({@code kubectl/v1.32.0 (linux/amd64) kubernetes/abc} gives {@code kubectl}).
     */
    public static String managerOrUserAgent(String fieldManager, String userAgent) {
        if (fieldManager != null && !fieldManager.isEmpty()) {
            return fieldManager;
        }
        if (userAgent == null) {
            return "";
        }
        int slash = userAgent.indexOf('/');
        String head = slash < 0 ? userAgent : userAgent.substring(0, slash);
        StringBuilder b = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < head.length(); ) {
            int cp = head.codePointAt(i);
            i += Character.charCount(cp);
            if (!GoStrings.isPrint(cp)) {
                continue;
            }
            int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + len > MAX_MANAGER_LENGTH) {
                break;
            }
            b.appendCodePoint(cp);
            bytes += len;
        }
        return b.toString();
    }

    /**
     * Validates the {@code fieldManager} option as kube's {@code Validate*Options} do.
     *
     * @param optionsKind {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}
     * @param apply whether the request is an apply patch (which requires a manager)
     * @throws ApiException 422, e.g. {@code PatchOptions.meta.k8s.io "" is invalid: fieldManager:
     *     Required value: is required for apply patch}
     */
    public static void validateFieldManager(String optionsKind, String fieldManager, boolean apply) {
        List<FieldError> errors = new ArrayList<>();
        String m = fieldManager == null ? "" : fieldManager;
        if (apply && m.isEmpty()) {
            errors.add(FieldError.required("fieldManager", "is required for apply patch"));
        }
        if (m.getBytes(StandardCharsets.UTF_8).length > MAX_MANAGER_LENGTH) {
            errors.add(new FieldError(FieldError.Type.TOO_LONG, "fieldManager", null,
                    "may not be more than " + MAX_MANAGER_LENGTH + " bytes"));
        }
        int bytePos = 0;
        for (int i = 0; i < m.length(); ) {
            int cp = m.codePointAt(i);
            i += Character.charCount(cp);
            if (!GoStrings.isPrint(cp)) {
                errors.add(FieldError.invalid("fieldManager", GoStrings.quote(m),
                        "invalid character U+%04X (at position %d)".formatted(cp, bytePos)));
            }
            bytePos += new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
        }
        if (!errors.isEmpty()) {
            throw ApplyErrors.invalidOptions(optionsKind, errors);
        }
    }
}
