package io.kapi.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectShapes;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.cel.CelBudget;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelObject;
import io.kapi.machinery.cel.CelValues;
import io.kapi.machinery.patch.Patches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One mutation of a mutating admission policy applied to the request's object, as kube's patchers do
 * it: the expression's {@code Object{...}} merged into the object by the kind's structure
 * ({@code ApplyConfiguration}), or its {@code JSONPatch{...}} list applied ({@code JSONPatch}; a failing
 * {@code test} leaves the object as it was). Failures carry kube's wording.
 */
final class PolicyMutation {

    /** Why a mutation did not apply. */
    static final class Failure extends Exception {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    private PolicyMutation() {
    }

    /**
     * The object after {@code mutation}: a new tree ({@code object} is left as it is), or {@code object}
     * itself when a JSON patch test did not hold.
     *
     * @param vars the CEL variables (object, oldObject, request, params, namespaceObject, variables, authorizer)
     */
    static ObjectNode apply(CompiledMutatingPolicy.Mutation mutation, GroupVersionKind kind, ObjectNode object,
                            Map<String, Object> vars, long budget, ObjectShapes shapes) throws Failure {
        PolicyExpression e = mutation.expression();
        if (e.program() == null) {
            throw new Failure(e.compileError());
        }
        Object result;
        try {
            result = e.program().evaluate(vars, new CelBudget(budget));
        } catch (CelError err) {
            throw new Failure("expression '" + e.source() + "' resulted in error: " + err.getMessage());
        }
        return switch (mutation.type()) {
            case APPLY_CONFIGURATION -> applyConfiguration(result, kind, object, shapes);
            case JSON_PATCH -> jsonPatch(result, object);
        };
    }

    private static ObjectNode applyConfiguration(Object result, GroupVersionKind kind, ObjectNode object,
                                                 ObjectShapes shapes) throws Failure {
        if (!(result instanceof CelObject o) || !o.typeName().equals(CelObject.OBJECT)) {
            throw new Failure("unsupported return type from ApplyConfiguration expression: " + typeName(result));
        }
        checkTypeNames(o);
        ObjectNode configuration = (ObjectNode) CelValues.toJson(o);
        configuration.put("apiVersion", kind.apiVersion());
        configuration.put("kind", kind.kind());
        try {
            return shapes.mergeConfiguration(kind, object, configuration);
        } catch (IllegalArgumentException err) {
            throw new Failure("error applying patch: " + err.getMessage());
        }
    }

    private static ObjectNode jsonPatch(Object result, ObjectNode object) throws Failure {
        if (!(result instanceof List<?> items)) {
            throw new Failure("type mismatch: JSONPatchType.expression should evaluate to array");
        }
        List<JsonNode> ops = new ArrayList<>();
        for (Object item : items) {
            if (!(item instanceof CelObject op) || !op.typeName().equals(CelObject.JSON_PATCH)) {
                throw new Failure("type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch, "
                        + "got element of " + typeName(item));
            }
            ops.add(operation(op));
        }
        return switch (Patches.applyOperations(object, ops)) {
            case Patches.Operations.Applied applied when applied.document() instanceof ObjectNode o -> o;
            case Patches.Operations.Applied applied -> throw new Failure("JSONPath: the patched document is not an "
                    + "object");
            case Patches.Operations.TestFailed failed -> object;
            case Patches.Operations.Failed failed -> throw new Failure("JSONPath: " + failed.message());
        };
    }

    /** A JSON patch operation as kube writes it: op and path, from when not empty, value when set. */
    private static ObjectNode operation(CelObject op) throws Failure {
        ObjectNode out = Json.object();
        out.put("op", text(op, "op"));
        out.put("path", text(op, "path"));
        String from = text(op, "from");
        if (!from.isEmpty()) {
            out.put("from", from);
        }
        if (op.fields().containsKey("value")) {
            Object value = op.fields().get("value");
            if (value instanceof CelObject o) {
                checkTypeNames(o);
            }
            out.set("value", CelValues.toJson(value));
        }
        return out;
    }

    private static String text(CelObject op, String field) {
        Object v = op.fields().get(field);
        return v instanceof String s ? s : "";
    }

    private static void checkTypeNames(CelObject o) throws Failure {
        List<String> mismatches = o.typeNameMismatches();
        if (!mismatches.isEmpty()) {
            throw new Failure("type mismatch: " + String.join("\n", mismatches));
        }
    }

    private static String typeName(Object value) {
        return switch (value) {
            case null -> "null_type";
            case CelObject o -> o.typeName();
            case Map<?, ?> m -> "map";
            case List<?> l -> "list";
            case String s -> "string";
            case Long l -> "int";
            case Double d -> "double";
            case Boolean b -> "bool";
            default -> value.getClass().getSimpleName();
        };
    }
}
