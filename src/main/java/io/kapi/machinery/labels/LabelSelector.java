package io.kapi.machinery.labels;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.labels.Requirement.Operator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A label selector ({@code labels.Selector}): requirements joined by AND, sorted by key. Made from the
 * string syntax of a {@code labelSelector} parameter ({@link #parse}), from a {@code metav1.LabelSelector}
 * object ({@link #fromObject}, kube's {@code LabelSelectorAsSelector}) or from a plain label map
 * ({@link #fromSet}); printed in kube's canonical form by {@link #toString}. Immutable and thread-safe;
 * {@link #matches} is what the watch cache runs for every event and listed object.
 */
public final class LabelSelector {

    /** Selects everything: no requirement. */
    public static final LabelSelector EVERYTHING = new LabelSelector(List.of(), false);
    /** Selects nothing ({@code labels.Nothing()}): what a missing {@code metav1.LabelSelector} means. */
    public static final LabelSelector NOTHING = new LabelSelector(List.of(), true);

    private static final Comparator<Requirement> BY_KEY = Comparator.comparing(Requirement::key);

    private final List<Requirement> requirements;
    private final Requirement[] array;
    private final boolean nothing;

    /** A selector of these requirements (sorted by key here, as {@code Selector.Add} does). */
    public LabelSelector(List<Requirement> requirements) {
        this(sorted(requirements), false);
    }

    private LabelSelector(List<Requirement> requirements, boolean nothing) {
        this.requirements = requirements;
        this.array = requirements.toArray(Requirement[]::new);
        this.nothing = nothing;
    }

    /**
     * {@code labels.Parse}: {@code k=v}, {@code k==v}, {@code k!=v}, {@code k in (a,b)}, {@code k notin (a,b)},
     * {@code k}, {@code !k}, {@code k>1}, {@code k<1}, joined by commas; null or blank selects everything.
     *
     * @throws ApiException 400 BadRequest with kube-apiserver's message when it does not parse
     */
    public static LabelSelector parse(String selector) {
        if (selector == null || selector.isEmpty()) {
            return EVERYTHING;
        }
        try {
            List<Requirement> requirements = SelectorParser.parse(selector);
            return requirements.isEmpty() ? EVERYTHING : new LabelSelector(requirements);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    /**
     * {@code metav1.LabelSelectorAsSelector}: absent or JSON null selects nothing, one without
     * {@code matchLabels} and {@code matchExpressions} everything; otherwise every label and expression is
     * a validated requirement.
     *
     * @throws IllegalArgumentException with kube's message for an unknown operator, a bad key or value,
     *         or values the operator does not take
     */
    public static LabelSelector fromObject(JsonNode selector) {
        if (selector == null || selector.isMissingNode() || selector.isNull()) {
            return NOTHING;
        }
        JsonNode matchLabels = selector.path("matchLabels");
        JsonNode expressions = selector.path("matchExpressions");
        if (matchLabels.size() + expressions.size() == 0) {
            return EVERYTHING;
        }
        List<Requirement> requirements = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : matchLabels.properties()) {
            requirements.add(Requirement.validated(e.getKey(), Operator.EQUALS, List.of(e.getValue().asText()), null));
        }
        for (JsonNode expression : expressions) {
            String op = expression.path("operator").asText("");
            Operator operator = switch (op) {
                case "In" -> Operator.IN;
                case "NotIn" -> Operator.NOT_IN;
                case "Exists" -> Operator.EXISTS;
                case "DoesNotExist" -> Operator.DOES_NOT_EXIST;
                default -> throw new IllegalArgumentException(GoStrings.quote(op) + " is not a valid label selector operator");
            };
            List<String> values = new ArrayList<>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            requirements.add(Requirement.validated(expression.path("key").asText(""), operator, values, null));
        }
        return new LabelSelector(requirements);
    }

    /** {@code SelectorFromSet}: each label of a map must be equal (not validated); empty selects everything. */
    public static LabelSelector fromSet(Map<String, String> labels) {
        if (labels.isEmpty()) {
            return EVERYTHING;
        }
        List<Requirement> requirements = new ArrayList<>(labels.size());
        labels.forEach((k, v) -> requirements.add(new Requirement(k, Operator.EQUALS, List.of(v))));
        return new LabelSelector(requirements);
    }

    /** {@link #fromSet} of a JSON object of string values (a {@code map[string]string} selector). */
    public static LabelSelector fromSet(JsonNode labels) {
        return fromSet(labelsOf(labels));
    }

    /** A JSON object of labels as a map; empty for anything else. */
    public static Map<String, String> labelsOf(JsonNode labels) {
        Map<String, String> map = new TreeMap<>();
        if (labels != null && labels.isObject()) {
            labels.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
        }
        return map;
    }

    /** Whether every requirement holds for this label set (values never null); never for {@link #NOTHING}. */
    public boolean matches(Map<String, String> labels) {
        if (nothing) {
            return false;
        }
        for (Requirement r : array) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** {@link #matches} of a JSON object of labels (absent: no labels). */
    public boolean matches(JsonNode labels) {
        return matches(labelsOf(labels));
    }

    /** {@code Selector.Empty()}: no requirement restricts (false for {@link #NOTHING}). */
    public boolean isEverything() {
        return !nothing && array.length == 0;
    }

    /** Whether this is {@link #NOTHING}, which no label set matches. */
    public boolean matchesNothing() {
        return nothing;
    }

    /** The requirements, sorted by key. */
    public List<Requirement> requirements() {
        return requirements;
    }

    /** {@code Selector.String()}: the requirements in kube's form joined by commas; "" for none. */
    @Override
    public String toString() {
        if (array.length == 1) {
            return array[0].toString();
        }
        StringBuilder b = new StringBuilder();
        for (Requirement r : array) {
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(r);
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LabelSelector s && nothing == s.nothing && requirements.equals(s.requirements);
    }

    @Override
    public int hashCode() {
        return requirements.hashCode() + (nothing ? 1 : 0);
    }

    private static List<Requirement> sorted(List<Requirement> requirements) {
        List<Requirement> copy = new ArrayList<>(requirements);
        copy.sort(BY_KEY);
        return List.copyOf(copy);
    }
}
