package io.kapi.machinery.apply;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.StatusReason;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The errors of server-side apply, worded as kube-apiserver words them. */
public final class ApplyErrors {

    /** The cause type of an apply conflict in {@code details.causes}. */
    public static final String FIELD_MANAGER_CONFLICT = "FieldManagerConflict";

    private ApplyErrors() {
    }

    /**
     * 409 {@code Apply failed with 1 conflict: conflict with "m" using apps/v1: .spec.replicas}, or for
     * several: {@code Apply failed with 2 conflicts: conflicts with "m" using apps/v1:\n- .a\n- .b},
     * managers sorted; one cause per conflicting field.
     */
    static ApiException conflicts(List<Conflict> conflicts) {
        List<StatusCause> causes = new ArrayList<>();
        for (Conflict c : conflicts) {
            causes.add(new StatusCause(FIELD_MANAGER_CONFLICT, "conflict with " + c.manager().printed(),
                    c.pathString()));
        }
        String message;
        if (conflicts.size() == 1) {
            Conflict c = conflicts.getFirst();
            message = "Apply failed with 1 conflict: conflict with %s: %s".formatted(c.manager().printed(),
                    c.pathString());
        } else {
            Map<String, List<Conflict>> byManager = new LinkedHashMap<>();
            conflicts.stream()
                    .sorted((a, b) -> a.manager().identifier().compareTo(b.manager().identifier()))
                    .forEach(c -> byManager.computeIfAbsent(c.manager().identifier(), k -> new ArrayList<>()).add(c));
            List<String> lines = new ArrayList<>();
            for (List<Conflict> group : byManager.values()) {
                lines.add("conflicts with %s:".formatted(group.getFirst().manager().printed()));
                group.forEach(c -> lines.add("- " + c.pathString()));
            }
            message = "Apply failed with %d conflicts: %s".formatted(conflicts.size(), String.join("\n", lines));
        }
        return new ApiException(StatusReason.CONFLICT, 409, message,
                new ApiException.Details(null, null, null, causes, null));
    }

    /** 400 when the applied configuration names another kind or version than the target. */
    static ApiException invalidObjectType(String appliedApiVersion, String appliedKind) {
        return ApiException.badRequest("invalid object type: " + goGvk(appliedApiVersion, appliedKind));
    }

    static ApiException managedFieldsMustBeNil() {
        return ApiException.badRequest("metadata.managedFields must be nil");
    }

    /**
     * 400 for a configuration that does not fit the schema (an undeclared field, duplicate list keys), with
     * kube's message. kube-apiserver answers 500 here, an error it does not type; the mistake is the
     * client's, so Kapi answers BadRequest.
     */
    static ApiException typedPatch(String apiVersion, String kind, String detail) {
        return ApiException.badRequest(
                "failed to create typed patch object (%s): %s".formatted(goGvk(apiVersion, kind), detail));
    }

    static ApiException internal(String message) {
        return new ApiException(StatusReason.INTERNAL_ERROR, 500, message, ApiException.Details.NONE);
    }

    /**
     * 422 for invalid request options, e.g. {@code PatchOptions.meta.k8s.io "" is invalid: fieldManager:
     * Required value: is required for apply patch}.
     *
     * @param optionsKind {@code PatchOptions}, {@code CreateOptions} or {@code UpdateOptions}
     */
    public static ApiException invalidOptions(String optionsKind, List<FieldError> errors) {
        String joined = errors.size() == 1 ? errors.getFirst().toString()
                : errors.stream().map(FieldError::toString).collect(Collectors.joining(", ", "[", "]"));
        return new ApiException(StatusReason.INVALID, 422,
                "%s.meta.k8s.io \"\" is invalid: %s".formatted(optionsKind, joined),
                new ApiException.Details(null, "meta.k8s.io", optionsKind,
                        errors.stream().map(FieldError::toCause).toList(), null));
    }

    /** Go's {@code schema.GroupVersionKind.String()}: {@code apps/v1, Kind=Deployment}, {@code /v1, Kind=Pod}. */
    static String goGvk(String apiVersion, String kind) {
        String group = "";
        String version = apiVersion == null ? "" : apiVersion;
        int slash = version.indexOf('/');
        if (slash >= 0) {
            group = version.substring(0, slash);
            version = version.substring(slash + 1);
        }
        return group + "/" + version + ", Kind=" + (kind == null ? "" : kind);
    }
}
