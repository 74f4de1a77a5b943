package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.DecodeBudget;
import io.kapi.machinery.DeepStack;
import java.util.List;

/**
 * The entry point of the patch engines: applies a JSON patch, a JSON merge patch or a strategic merge
 * patch to an object, as kube-apiserver's PATCH handler does before decoding, defaulting, admission and
 * validation (which stay the caller's).
 *
 * <pre>{@code
 * PatchType type = PatchType.fromContentType(request.header("Content-Type"));   // 415 if unknown
 * PatchSchema schema = patchSchemas.forKind(gvk).orElse(null);                   // null: custom resource
 * ObjectNode updated = Patches.apply(type, current, body, schema);
 * }</pre>
 *
 * <p>Errors, as kube-apiserver answers them:
 * <ul>
 *   <li>JSON patch: body not a JSON array of objects → 400 (Go's decode message); more than 10000
 *       operations → 413; an operation that does not apply (failed {@code test}, missing path, bad
 *       index) → 422 Invalid "the server rejected our request due to an error in our request";</li>
 *   <li>merge patch: body not JSON, or a JSON scalar or null → 400 "Invalid JSON Patch";</li>
 *   <li>strategic merge: no schema → 415 listing json-patch, merge-patch and apply-patch; body not a
 *       JSON object → 400; malformed {@code $retainKeys}, {@code $deleteFromPrimitiveList},
 *       {@code $setElementOrder} → 400; lists of lists → 422; any other inconsistency (missing merge
 *       key, unknown {@code $patch}) → 500 with the Go message;</li>
 *   <li>a result deeper than {@link DecodeBudget#MAX_DEPTH} or larger than
 *       {@link DecodeBudget#MAX_DECODED_BYTES} → 400;</li>
 *   <li>a result that is not a JSON object (a JSON patch replacing the root with an array, a merge patch
 *       that is an array) → 422 Invalid {@code "" is invalid: patch: Invalid value: ...}.</li>
 * </ul>
 */
public final class Patches {

    private static final System.Logger LOG = System.getLogger(Patches.class.getName());

    private Patches() {
    }

    /**
     * Applies {@code patch} to {@code current} and returns the patched object as a new tree;
     * {@code current} is never modified.
     *
     * @param type the patch format, from {@link PatchType#fromContentType}; {@link PatchType#APPLY} is
     *     not handled here
     * @param schema the kind's strategic-merge view, or null when it has none (custom resources)
     * @throws ApiException as listed in the class documentation
     * @throws IllegalArgumentException for {@link PatchType#APPLY}
     */
    public static ObjectNode apply(PatchType type, ObjectNode current, byte[] patch, PatchSchema schema) {
        if (!DeepStack.onDeepStack() && (DeepStack.isDeep(patch) || DeepStack.isDeep(current))) {
            return DeepStack.call(() -> apply(type, current, patch, schema)); // the engines recurse per level
        }
        JsonNode result = switch (type) {
            case JSON -> applyJson(current, patch);
            case MERGE -> MergePatch.apply(current.deepCopy(), patch);
            case STRATEGIC_MERGE -> {
                if (schema == null) {
                    throw PatchType.unsupported(PatchType.CUSTOM);
                }
                yield StrategicMergePatch.apply(current.deepCopy(), patch, schema);
            }
            case APPLY -> throw new IllegalArgumentException(
                    "server-side apply is handled by io.kapi.machinery.apply, not by the patch engines");
        };
        if (result instanceof ObjectNode object) {
            checkBudget(object);
            return object;
        }
        throw PatchErrors.notAnObject(result.toString(),
                "couldn't get version/kind; json parse error: json: cannot unmarshal %s into Go value of type "
                        .formatted(GoFormat.jsonKind(result))
                        + "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
                        + "Kind string \"json:\\\"kind,omitempty\\\"\" }");
    }

    /**
     * A patch can nest what it adds (each JSON patch operation one level deeper than the last), so the
     * result is held to the decoding bounds before anything walks it recursively.
     */
    private static void checkBudget(ObjectNode patched) {
        try {
            DecodeBudget.check(patched);
        } catch (DecodeBudget.Exceeded e) {
            throw PatchErrors.badRequest("the patched object is invalid: " + e.getMessage());
        }
    }

    private static JsonNode applyJson(ObjectNode current, byte[] patch) {
        List<JsonNode> ops = JsonPatch.decode(patch);
        try {
            return JsonPatch.apply(current.deepCopy(), ops);
        } catch (JsonPatch.Failure e) {
            LOG.log(System.Logger.Level.DEBUG, "JSON patch rejected: {0}", e.getMessage());
            throw PatchErrors.unprocessable();
        }
    }

    /** What JSON patch operations the server made itself (a mutating admission policy's) did. */
    public sealed interface Operations {
        /** @param document the patched copy */
        record Applied(JsonNode document) implements Operations {
        }

        /** A {@code test} operation found another value: kube applies none of the patch then. */
        record TestFailed(String message) implements Operations {
        }

        /** An operation did not apply, with evanphx's message. */
        record Failed(String message) implements Operations {
        }
    }

    /** Applies {@code ops} to a copy of {@code document} (which stays as it is). */
    public static Operations applyOperations(JsonNode document, List<JsonNode> ops) {
        try {
            return new Operations.Applied(JsonPatch.apply(document.deepCopy(), ops));
        } catch (JsonPatch.TestFailed e) {
            return new Operations.TestFailed(e.getMessage());
        } catch (JsonPatch.Failure e) {
            return new Operations.Failed(e.getMessage());
        }
    }
}
