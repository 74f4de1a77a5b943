package io.kapi.registry;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The resourceVersion parameters of get, list and watch, checked and read as kube-apiserver does:
 * {@code ValidateListOptions} (422 {@code ListOptions.meta.k8s.io "" is invalid: ...}) and the
 * versioner's parse (400 {@code invalid resource version: ...}).
 */
public final class ResourceVersions {

    static final String NOT_OLDER_THAN = "NotOlderThan";
    static final String EXACT = "Exact";
    private static final GroupVersionKind LIST_OPTIONS = new GroupVersionKind("meta.k8s.io", "", "ListOptions");
    private static final String MATCH = "resourceVersionMatch";

    private ResourceVersions() {
    }

    /** The revision a resourceVersion names; 0 for "" and "0". */
    static long parse(String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isEmpty() || resourceVersion.equals("0")) {
            return 0;
        }
        try {
            long v = Long.parseLong(resourceVersion);
            if (v >= 0 && resourceVersion.charAt(0) != '+') {
                return v;
            }
        } catch (NumberFormatException e) {
            // worded below
        }
        throw ApiException.badRequest(("invalid resource version: resourceVersion: Invalid value: \"%s\": "
                + "strconv.ParseUint: parsing \"%s\": invalid syntax").formatted(resourceVersion, resourceVersion));
    }

    /** The checks of a list request. */
    static void validateList(ListOptions o) {
        List<FieldError> errors = new ArrayList<>();
        String match = o.resourceVersionMatch();
        if (!match.isEmpty()) {
            if (o.resourceVersion().isEmpty()) {
                errors.add(FieldError.forbidden(MATCH, "resourceVersionMatch is forbidden unless resourceVersion is provided"));
            }
            if (o.continueToken() != null && !o.continueToken().isEmpty()) {
                errors.add(FieldError.forbidden(MATCH, "resourceVersionMatch is forbidden when continue is provided"));
            }
            if (!match.equals(EXACT) && !match.equals(NOT_OLDER_THAN)) {
                errors.add(notSupported(match, "\"Exact\", \"NotOlderThan\", \"\""));
            }
            if (match.equals(EXACT) && o.resourceVersion().equals("0")) {
                errors.add(FieldError.forbidden(MATCH, "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
            }
        }
        if (o.sendInitialEvents() != null) {
            errors.add(FieldError.forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
        }
        fail(errors);
    }

    /** The checks of a watch request (the WatchList feature on, as in kube-apiserver 1.34). */
    static void validateWatch(ListOptions o) {
        List<FieldError> errors = new ArrayList<>();
        String match = o.resourceVersionMatch();
        if (o.sendInitialEvents() != null && !match.equals(NOT_OLDER_THAN)) {
            errors.add(FieldError.forbidden(MATCH, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
        }
        if (!match.isEmpty()) {
            if (o.sendInitialEvents() == null) {
                errors.add(FieldError.forbidden(MATCH, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
            }
            if (!match.equals(NOT_OLDER_THAN)) {
                errors.add(notSupported(match, "\"NotOlderThan\""));
            }
            if (o.continueToken() != null && !o.continueToken().isEmpty()) {
                errors.add(FieldError.forbidden(MATCH, "resourceVersionMatch is forbidden when continue is provided"));
            }
        }
        fail(errors);
    }

    /**
     * Whether a watch sends the current state first: asked for, or defaulted as kube-apiserver's
     * {@code SetListOptionsDefaults} does for a watch from "" or "0".
     */
    public static boolean initialEvents(ListOptions o) {
        if (o.sendInitialEvents() != null) {
            return o.sendInitialEvents();
        }
        return o.resourceVersionMatch().isEmpty()
                && (o.resourceVersion().isEmpty() || o.resourceVersion().equals("0"));
    }

    private static FieldError notSupported(String value, String supported) {
        return new FieldError(FieldError.Type.NOT_SUPPORTED, MATCH, GoStrings.quote(value), "supported values: " + supported);
    }

    private static void fail(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiException.invalid(LIST_OPTIONS, "", errors);
        }
    }
}
