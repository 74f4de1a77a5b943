package io.kapi.machinery.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The worst-case cost of an expression, as kube's estimator reasons: every node costs one, building a
 * list ten and a map thirty, functions over strings and lists a tenth of their largest size, and a
 * comprehension its body times the most elements its range can have. Sizes come from the schema bounds
 * of the value the range or string is read from; unbounded ones from the request size limit (one
 * element per two bytes at least, as {@code []} of single-digit numbers).
 */
final class CostEstimator {

    private static final Set<String> SIZE_FUNCTIONS = Set.of("contains", "startsWith", "endsWith", "matches",
            "_+_", "split", "join", "lowerAscii", "upperAscii", "replace", "substring", "trim", "find", "findAll",
            "indexOf", "lastIndexOf", "isSorted", "sum", "min", "max", "_==_", "_!=_", "@in", "url", "quantity");

    private final CelEnvironment environment;
    private final CelAbstractSyntaxTree ast;
    private final long unbounded;

    CostEstimator(CelEnvironment environment, CelAbstractSyntaxTree ast) {
        this.environment = environment;
        this.ast = ast;
        this.unbounded = environment.limits().maxRequestSizeBytes() / 2;
    }

    long estimate() {
        return cost(ast.getExpr(), Map.of());
    }

    private long cost(CelExpr e, Map<String, CelSchema> scope) {
        return switch (e.getKind()) {
            case CONSTANT, NOT_SET -> 0;
            case IDENT -> 1;
            case SELECT -> add(1, cost(e.select().operand(), scope));
            case CALL -> call(e.call(), scope);
            case LIST -> e.list().elements().stream().mapToLong(x -> cost(x, scope)).reduce(10, CostEstimator::add);
            case MAP -> e.map().entries().stream().mapToLong(x -> add(cost(x.key(), scope), cost(x.value(), scope)))
                    .reduce(30, CostEstimator::add);
            case STRUCT -> e.struct().entries().stream().mapToLong(x -> cost(x.value(), scope))
                    .reduce(40, CostEstimator::add);
            case COMPREHENSION -> comprehension(e.comprehension(), scope);
        };
    }

    private long call(CelExpr.CelCall call, Map<String, CelSchema> scope) {
        long total = 1;
        long largest = 0;
        if (call.target().isPresent()) {
            total = add(total, cost(call.target().get(), scope));
            largest = size(call.target().get(), scope);
        }
        for (CelExpr arg : call.args()) {
            total = add(total, cost(arg, scope));
            largest = Math.max(largest, size(arg, scope));
        }
        if (SIZE_FUNCTIONS.contains(call.function())) {
            total = add(total, (long) Math.ceil(largest * 0.1));
        }
        return total;
    }

    private long comprehension(CelExpr.CelComprehension c, Map<String, CelSchema> scope) {
        long n = size(c.iterRange(), scope);
        Map<String, CelSchema> inner = new HashMap<>(scope);
        schemaOf(c.iterRange(), scope).flatMap(CelSchema::items).ifPresent(items -> inner.put(c.iterVar(), items));
        long body = add(cost(c.loopCondition(), inner), cost(c.loopStep(), inner));
        return add(add(cost(c.iterRange(), scope), cost(c.accuInit(), scope)),
                add(multiply(n, body), cost(c.result(), inner)));
    }

    /** The most elements (or characters) the value of {@code e} can have. */
    private long size(CelExpr e, Map<String, CelSchema> scope) {
        if (e.getKind() == CelExpr.ExprKind.Kind.CONSTANT) {
            return e.constant().getKind() == dev.cel.common.ast.CelConstant.Kind.STRING_VALUE
                    ? e.constant().stringValue().length() : 1;
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.LIST) {
            return e.list().elements().size();
        }
        return schemaOf(e, scope).map(CelSchema::maxSize).filter(s -> s >= 0).orElse(unbounded);
    }

    /** The schema the value of {@code e} is read from, when it is a path from a schema-typed variable. */
    private Optional<CelSchema> schemaOf(CelExpr e, Map<String, CelSchema> scope) {
        return switch (e.getKind()) {
            case IDENT -> {
                CelSchema s = scope.get(e.ident().name());
                if (s != null) {
                    yield Optional.of(s);
                }
                CelEnvironment.Variable v = environment.variables().get(e.ident().name());
                yield v == null ? Optional.empty() : Optional.ofNullable(v.schema());
            }
            case SELECT -> schemaOf(e.select().operand(), scope).flatMap(s -> s.property(e.select().field()));
            default -> Optional.empty();
        };
    }

    private static long add(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    private static long multiply(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
