package io.kapi.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * kube's ValidatingAdmissionPolicy type checking: each validation's {@code expression} and
 * {@code messageExpression} is checked against the schema of every kind the policy's match constraints
 * name exactly (at most ten; rules with a wildcard group or version, and wildcard or subresource
 * resources, are skipped), with {@code object} and {@code oldObject} of that kind, {@code params} of the
 * param kind (undeclared when it has none or its schema is unknown) and {@code variables} typed by their
 * expressions. What fails to check is a warning; checking never changes how the policy admits.
 */
public final class PolicyTypeChecker {

    private static final int MAX_KINDS = 10;
    private static final String COMPILE_PREFIX = "compilation failed: ";

    /** What the checker asks of the served API. */
    public interface Types {

        /** The kinds a resource of a group and version is served as (empty when it is not served). */
        List<GroupVersionKind> kindsFor(String group, String version, String resource);

        /** The schema of a kind, when known. */
        Optional<CelSchema> schema(GroupVersionKind kind);
    }

    /** One entry of {@code status.typeChecking.expressionWarnings}. */
    public record ExpressionWarning(String fieldRef, String warning) {
    }

    private final Types types;

    public PolicyTypeChecker(Types types) {
        this.types = types;
    }

    /** The warnings of {@code policy} (a ValidatingAdmissionPolicy), in kube's order; empty when all check. */
    public List<ExpressionWarning> check(JsonNode policy) {
        JsonNode spec = policy.path("spec");
        List<Checked> kinds = new ArrayList<>();
        Optional<CelSchema> params = paramKind(spec.path("paramKind")).flatMap(types::schema);
        for (GroupVersionKind kind : kindsToCheck(spec.path("matchConstraints"))) {
            types.schema(kind).ifPresent(schema -> kinds.add(
                    new Checked(kind, environment(schema, params, spec.path("variables")))));
        }
        List<ExpressionWarning> warnings = new ArrayList<>();
        if (kinds.isEmpty()) {
            return warnings;
        }
        JsonNode validations = spec.path("validations");
        for (int i = 0; i < validations.size(); i++) {
            JsonNode v = validations.get(i);
            String at = "spec.validations[" + i + "].";
            warn(warnings, at + "expression", kinds, v.path("expression").asText(""));
            String message = v.path("messageExpression").asText("");
            if (!message.isEmpty()) {
                warn(warnings, at + "messageExpression", kinds, message);
            }
        }
        return warnings;
    }

    private record Checked(GroupVersionKind kind, CelEnvironment environment) {
    }

    private static void warn(List<ExpressionWarning> into, String fieldRef, List<Checked> kinds, String expression) {
        List<String> results = new ArrayList<>();
        for (Checked c : kinds) {
            try {
                c.environment().compile(expression);
            } catch (CelError e) {
                String issues = e.getMessage().startsWith(COMPILE_PREFIX)
                        ? e.getMessage().substring(COMPILE_PREFIX.length()) : e.getMessage();
                results.add(gvkString(c.kind()) + ": " + issues + "\n");
            }
        }
        if (!results.isEmpty()) {
            into.add(new ExpressionWarning(fieldRef, String.join("\n", results)));
        }
    }

    /**
     * {@code object}, {@code oldObject} and {@code params} typed, then the variables compiled in order, each
     * typed by its expression's result ({@code dyn} when it does not compile), as kube's composition
     * environment does.
     */
    private static CelEnvironment environment(CelSchema object, Optional<CelSchema> params, JsonNode variables) {
        CelEnvironment.Builder b = CelEnvironment.builder().variable("object", object).variable("oldObject", object)
                .map("request").dynamic("namespaceObject").authorizer();
        params.ifPresent(p -> b.variable("params", p));
        Map<String, CelType> declared = new LinkedHashMap<>();
        for (JsonNode v : variables) {
            CelType type;
            try {
                type = b.variable("variables", variablesType(declared)).build()
                        .compile(v.path("expression").asText("")).type();
            } catch (CelError e) {
                type = SimpleType.DYN;
            }
            declared.put(v.path("name").asText(""), type);
        }
        return b.variable("variables", variablesType(declared)).build();
    }

    private static CelType variablesType(Map<String, CelType> declared) {
        Map<String, CelType> fields = Map.copyOf(declared);
        return StructType.create("kubernetes.variables", ImmutableSet.copyOf(declared.keySet()),
                name -> Optional.ofNullable(fields.get(name)));
    }

    /** kube's {@code typesToCheck}: the exact kinds of the match constraints, sorted, at most ten. */
    private List<GroupVersionKind> kindsToCheck(JsonNode constraints) {
        TreeSet<GroupVersionKind> kinds = new TreeSet<>(Comparator.comparing(GroupVersionKind::group)
                .thenComparing(GroupVersionKind::version).thenComparing(GroupVersionKind::kind));
        int count = 0;
        for (JsonNode rule : constraints.path("resourceRules")) {
            List<String> groups = exact(rule.path("apiGroups"));
            List<String> versions = exact(rule.path("apiVersions"));
            List<String> resources = new ArrayList<>();
            rule.path("resources").forEach(r -> {
                if (!r.asText().contains("*") && !r.asText().contains("/")) {
                    resources.add(r.asText());
                }
            });
            if (groups == null || versions == null) {
                continue;
            }
            resources.sort(null);
            for (String group : groups) {
                for (String version : versions) {
                    for (String resource : resources) {
                        for (GroupVersionKind kind : types.kindsFor(group, version, resource)) {
                            kinds.add(kind);
                            if (++count == MAX_KINDS) {
                                return List.copyOf(kinds);
                            }
                        }
                    }
                }
            }
        }
        return List.copyOf(kinds);
    }

    /** The values sorted, or null when one is a wildcard or there are none. */
    private static List<String> exact(JsonNode values) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : values) {
            if (v.asText().contains("*")) {
                return null;
            }
            out.add(v.asText());
        }
        out.sort(null);
        return out.isEmpty() ? null : out;
    }

    private static Optional<GroupVersionKind> paramKind(JsonNode kind) {
        if (!kind.isObject() || kind.path("kind").asText("").isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(CompiledPolicy.paramKind(kind));
    }

    /** Go's {@code GroupVersionKind.String()}: {@code apps/v1, Kind=Deployment}, {@code /v1, Kind=Pod}. */
    static String gvkString(GroupVersionKind kind) {
        return kind.group() + "/" + kind.version() + ", Kind=" + kind.kind();
    }
}
