package io.kapi.machinery.patch;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.StatusReason;
import java.util.List;

/**
 * The errors the patch engines answer with, worded and coded as kube-apiserver's PATCH handler
 * ({@code endpoints/handlers/patch.go}) answers them.
 */
final class PatchErrors {

    /** JSON patch operations allowed in one request, as kube-apiserver's {@code maxJSONPatchOperations}. */
    static final int MAX_JSON_PATCH_OPERATIONS = 10_000;

    private PatchErrors() {
    }

    /** 400 for a body that cannot be decoded as the patch format. */
    static ApiException badRequest(String message) {
        return ApiException.badRequest(message);
    }

    /**
     * 422 as {@code errors.NewGenericServerResponse(422, ...)}: kube-apiserver hides the engine's own
     * message (a failed JSON patch {@code test}, a missing path, a list of lists) behind this fixed text.
     */
    static ApiException unprocessable() {
        return new ApiException(StatusReason.INVALID, 422,
                "the server rejected our request due to an error in our request", ApiException.Details.NONE);
    }

    /** 413 for a JSON patch with more than {@link #MAX_JSON_PATCH_OPERATIONS} operations. */
    static ApiException tooManyOperations(int count) {
        return new ApiException(StatusReason.REQUEST_ENTITY_TOO_LARGE, 413,
                "Request entity too large: The allowed maximum operations in a JSON patch is %d, got %d"
                        .formatted(MAX_JSON_PATCH_OPERATIONS, count),
                ApiException.Details.NONE);
    }

    /**
     * 500 with the engine's message as is: kube-apiserver returns strategic-merge errors it does not
     * classify as a bare error, which becomes a 500 Status (its reason is empty there; Kapi has no
     * empty reason and says InternalError).
     */
    static ApiException unclassified(String message) {
        return new ApiException(StatusReason.INTERNAL_ERROR, 500, message, ApiException.Details.NONE);
    }

    /**
     * 422 for a patched document that is no longer an object, as the decode step after patching words
     * it: {@code "" is invalid: patch: Invalid value: "<json>": <why>}.
     */
    static ApiException notAnObject(String patchedJson, String why) {
        return ApiException.invalid(new GroupVersionKind("", "", ""), "",
                List.of(FieldError.invalid("patch", GoStrings.quote(patchedJson), why)));
    }
}
