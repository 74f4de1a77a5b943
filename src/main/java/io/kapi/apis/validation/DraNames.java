package io.kapi.apis.validation;

import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.validation.Identifiers;
import java.util.regex.Pattern;

/**
 * The names of resource.k8s.io, as kube 1.34's {@code pkg/apis/resource/validation} checks them: drivers
 * (CSI driver names), pools (slash-separated DNS subdomains of at most 253 bytes), devices and requests
 * (DNS labels), device classes (DNS subdomains) and the qualified names of device attributes and capacities
 * ({@code [domain/]identifier}, an identifier a C identifier of at most 32 bytes).
 */
final class DraNames {

    static final int POOL_NAME_MAX = 253;
    static final int DOMAIN_MAX = 63;
    static final int ID_MAX = 32;

    private static final String C_IDENTIFIER_FMT = "[A-Za-z_][A-Za-z0-9_]*";
    private static final Pattern C_IDENTIFIER = Pattern.compile(C_IDENTIFIER_FMT);
    private static final String C_IDENTIFIER_MSG = Go.regexError("a valid C identifier must start with alphabetic "
            + "character or '_', followed by a string of alphanumeric characters or '_'", C_IDENTIFIER_FMT,
            "my_name", "MY_NAME", "MyName");

    private DraNames() {
    }

    /** {@code validateDriverName}: core's CSI driver name rules. */
    static void driver(String name, String path, Errs e) {
        StorageKinds.csiDriverName(name, path, e);
    }

    /** {@code validatePoolName}: required; at most 253 bytes; each slash-separated part a DNS subdomain. */
    static void pool(String name, String path, Errs e) {
        if (name.isEmpty()) {
            e.required(path, "");
            return;
        }
        if (StorageKinds.bytes(name) > POOL_NAME_MAX) {
            e.tooLong(path, POOL_NAME_MAX);
        }
        for (String part : name.split("/", -1)) {
            e.each(path, part, Identifiers.dns1123Subdomain(part));
        }
    }

    /** Core's {@code ValidateDNS1123Label}: device, request and counter names (empty fails the pattern). */
    static void label(String name, String path, Errs e) {
        e.each(path, name, Identifiers.dns1123Label(name));
    }

    /** {@code validateDeviceClass} of a request: required, then a DNS subdomain. */
    static void deviceClass(String name, String path, Errs e) {
        if (name.isEmpty()) {
            e.required(path, "");
        } else {
            e.each(path, name, Identifiers.dns1123Subdomain(name));
        }
    }

    /** {@code validateQualifiedName}: an identifier, or a domain (a driver name) and an identifier. */
    static void qualified(String name, String path, Errs e) {
        if (name.isEmpty()) {
            e.required(path, "name required");
            return;
        }
        String[] parts = name.split("/", -1);
        if (parts.length == 1) {
            cIdentifier(parts[0], path, e);
        } else if (parts.length == 2) {
            if (parts[0].isEmpty()) {
                e.required(path, "the domain must not be empty");
            } else {
                driver(parts[0], path, e);
            }
            if (parts[1].isEmpty()) {
                e.required(path, "the name must not be empty");
            } else {
                cIdentifier(parts[1], path, e);
            }
        }
    }

    /** {@code validateFullyQualifiedName}: a qualified name that has a domain. */
    static void fullyQualified(String name, String path, Errs e) {
        qualified(name, path, e);
        if (!name.isEmpty() && !name.contains("/")) {
            e.invalidString(path, name, "must include a domain");
        }
    }

    /** {@code validateCIdentifier}: at most 32 bytes; kube reports the pattern as a TypeInvalid error. */
    private static void cIdentifier(String id, String path, Errs e) {
        if (StorageKinds.bytes(id) > ID_MAX) {
            e.tooLong(path, ID_MAX);
        }
        if (!C_IDENTIFIER.matcher(id).matches()) {
            e.add(new FieldError(FieldError.Type.TYPE_INVALID, path, GoStrings.quote(id), C_IDENTIFIER_MSG));
        }
    }

    /**
     * A map key in a field path, as kube's {@code validateMap} prints it: keys longer than {@code max}
     * (at least 16) are cut in the middle with {@code ...}.
     */
    static String key(String path, String key, int max) {
        int limit = Math.max(max, 16);
        String shown = key;
        if (key.length() > limit) {
            int remaining = limit - 3;
            shown = key.substring(0, (remaining + 1) / 2) + "..." + key.substring(key.length() - remaining / 2);
        }
        return path + "[" + shown + "]";
    }
}
