package io.kapi.machinery.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OptionalType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A compiled, type-checked expression of a {@link CelEnvironment}. Evaluating it counts its runtime
 * cost as kube does, roughly: one unit per evaluated node, plus a tenth of the size of every string,
 * list or map a function produces; an evaluation that costs more than the per-call limit, or than the
 * budget it draws from, fails with {@link CelError.Kind#COST}. Thread-safe.
 */
public final class CelExpression {

    private final String source;
    private final CelAbstractSyntaxTree ast;
    private final CelRuntime.Program program;
    private final CelEnvironment environment;
    private volatile Long estimate;

    CelExpression(String source, CelAbstractSyntaxTree ast, CelRuntime.Program program, CelEnvironment environment) {
        this.source = source;
        this.ast = ast;
        this.program = program;
        this.environment = environment;
    }

    public String source() {
        return source;
    }

    /** The checked result type, e.g. {@code bool}, {@code string}, {@code list(string)}. */
    public String resultType() {
        return typeName(ast.getResultType());
    }

    /** A type as CEL writes it, with its parameters: {@code map(string, list(int))}. */
    static String typeName(CelType type) {
        if (type.parameters().isEmpty()) {
            return type.name();
        }
        return type.name() + "(" + String.join(", ", type.parameters().stream().map(CelExpression::typeName).toList())
                + ")";
    }

    /** The checked result type. */
    public CelType type() {
        return ast.getResultType();
    }

    /**
     * The worst-case cost of one evaluation, estimated from the types and the size bounds of the schemas
     * ({@code maxItems}, {@code maxLength}, {@code maxProperties}; unbounded ones from the request size
     * limit), as kube's estimator does for CRD validation rules.
     */
    public long estimatedCost() {
        Long e = estimate;
        if (e == null) {
            e = new CostEstimator(environment, ast).estimate();
            estimate = e;
        }
        return e;
    }

    /**
     * Evaluates with {@code variables} (JSON trees are converted by the variable's schema, or without
     * one; other values are passed as they are), drawing its cost from {@code budget}.
     *
     * @return the CEL value: Boolean, Long, Double, String, List, Map, Optional, Instant, Duration, ...
     * @throws CelError {@link CelError.Kind#EVALUATION} or {@link CelError.Kind#COST}
     */
    public Object evaluate(Map<String, ?> variables, CelBudget budget) {
        Map<String, Object> activation = new HashMap<>();
        variables.forEach((name, value) -> activation.put(name, convert(name, value)));
        CostCounter counter = new CostCounter(environment.limits().perCallLimit());
        try {
            return program.trace(activation, counter);
        } catch (CelEvaluationException e) {
            if (counter.exceeded) {
                throw costExceeded();
            }
            throw new CelError(CelError.Kind.EVALUATION, message(e));
        } catch (CostExceeded e) {
            throw costExceeded();
        } finally {
            if (!budget.take(counter.cost)) {
                throw costExceeded();
            }
        }
    }

    /** Evaluates and expects a bool, as validation rules and match conditions must be. */
    public boolean test(Map<String, ?> variables, CelBudget budget) {
        Object result = evaluate(variables, budget);
        if (result instanceof Boolean b) {
            return b;
        }
        throw new CelError(CelError.Kind.EVALUATION, "expression '" + source + "' resulted in non-boolean value");
    }

    private Object convert(String name, Object value) {
        if (!(value instanceof JsonNode json)) {
            return value;
        }
        CelEnvironment.Variable v = environment.variables().get(name);
        Object converted = v == null || v.schema() == null ? CelValues.of(json) : v.schema().value(json);
        if (v != null && v.type() instanceof OptionalType) {
            return json.isNull() || json.isMissingNode() ? Optional.empty() : Optional.ofNullable(converted);
        }
        return converted;
    }

    private static CelError costExceeded() {
        return new CelError(CelError.Kind.COST, "operation cancelled: actual cost limit exceeded");
    }

    /** cel-java's messages where kube's (cel-go's) differ, e.g. a missing key. */
    private static String message(CelEvaluationException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        m = m.replaceFirst("^evaluation error at <input>:\\d+: ", "");
        java.util.regex.Matcher key = java.util.regex.Pattern.compile("key '(.*)' is not present in map\\.?").matcher(m);
        if (key.find()) {
            return "no such key: " + key.group(1);
        }
        return m;
    }

    /** Counts cost while the program runs; stops it past the per-call limit. */
    private static final class CostCounter implements dev.cel.runtime.CelEvaluationListener {
        private final long limit;
        long cost;
        boolean exceeded;

        CostCounter(long limit) {
            this.limit = limit;
        }

        @Override
        public void callback(CelExpr expr, Object result) {
            cost++;
            if (expr.getKind() == CelExpr.ExprKind.Kind.CALL) {
                cost += sizeCost(result);
            }
            if (cost > limit) {
                exceeded = true;
                throw new CostExceeded();
            }
        }

        private static long sizeCost(Object result) {
            long size = switch (result) {
                case String s -> s.length();
                case Collection<?> c -> c.size();
                case Map<?, ?> m -> m.size();
                case null, default -> 0;
            };
            return (long) Math.ceil(size * 0.1);
        }
    }

    /** Thrown out of the listener to stop an evaluation that costs too much. */
    private static final class CostExceeded extends RuntimeException {
        CostExceeded() {
            super("operation cancelled: actual cost limit exceeded", null, false, false);
        }
    }
}
