package io.kapi.admission.cel;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.cel.CelBudget;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code matchConditions} of a webhook or binding: named CEL expressions that must all be true for it
 * to apply. Evaluated in order with kube's match-condition budget; the first false one decides
 * "no match"; an error is reported (its failure policy decides what it means).
 */
public final class MatchConditions {

    /** The outcome. */
    public sealed interface Result {
        record Match() implements Result {
        }

        record NoMatch(String condition) implements Result {
        }

        record Error(String condition, String message) implements Result {
        }
    }

    private record Condition(String name, CelExpression expression, String compileError) {
    }

    public static final MatchConditions NONE = new MatchConditions(List.of());

    private final List<Condition> conditions;

    private MatchConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    /** Compiles the conditions of {@code array} (compile errors are kept and reported when evaluated). */
    public static MatchConditions compile(JsonNode array, CelEnvironment env) {
        List<Condition> list = new ArrayList<>();
        for (JsonNode c : array) {
            String name = c.path("name").asText("");
            try {
                list.add(new Condition(name, env.compile(c.path("expression").asText("")), null));
            } catch (CelError e) {
                list.add(new Condition(name, null, e.getMessage()));
            }
        }
        return list.isEmpty() ? NONE : new MatchConditions(List.copyOf(list));
    }

    public boolean isEmpty() {
        return conditions.isEmpty();
    }

    public Result evaluate(Map<String, ?> activation, long budget) {
        CelBudget shared = new CelBudget(budget);
        Result.Error firstError = null;
        for (Condition c : conditions) {
            if (c.expression() == null) {
                firstError = firstError != null ? firstError : new Result.Error(c.name(), c.compileError());
                continue;
            }
            try {
                if (!c.expression().test(activation, shared)) {
                    return new Result.NoMatch(c.name());
                }
            } catch (CelError e) {
                firstError = firstError != null ? firstError : new Result.Error(c.name(), e.getMessage());
            }
        }
        return firstError != null ? firstError : new Result.Match();
    }
}
