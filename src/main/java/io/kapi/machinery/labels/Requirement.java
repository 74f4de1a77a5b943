package io.kapi.machinery.labels;

import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.validation.Identifiers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One requirement of a label selector ({@code labels.Requirement}): a key, an operator and its values.
 * Immutable; matching a label set costs one map lookup and, for the usual single value, one string
 * comparison.
 */
public final class Requirement {

    /** The operators of {@code selection.Operator} a label requirement may use. */
    public enum Operator {
        EQUALS("="), DOUBLE_EQUALS("=="), NOT_EQUALS("!="), IN("in"), NOT_IN("notin"),
        EXISTS("exists"), DOES_NOT_EXIST("!"), GREATER_THAN("gt"), LESS_THAN("lt");

        private final String word;

        Operator(String word) {
            this.word = word;
        }

        /** The operator as {@code selection.Operator} spells it. */
        public String word() {
            return word;
        }
    }

    /** Sets larger than this are matched through a hash set rather than a scan. */
    private static final int SCAN_LIMIT = 8;

    private final String key;
    private final Operator operator;
    private final List<String> values;
    private final Set<String> valueSet;

    /** A requirement, not validated (as {@code SelectorFromValidatedSet} builds them). */
    public Requirement(String key, Operator operator, Collection<String> values) {
        this.key = key;
        this.operator = operator;
        this.values = List.copyOf(values);
        this.valueSet = this.values.size() > SCAN_LIMIT ? Set.copyOf(this.values) : null;
    }

    /**
     * {@code labels.NewRequirement}: the key a qualified name, values as the operator needs them (some for
     * {@code in}/{@code notin}, one for the equalities, none for the existence tests, one integer for
     * {@code gt}/{@code lt}), each a valid label value.
     *
     * @param path the field path errors name ({@code null} for none, printed {@code <nil>} as Go prints it)
     * @throws IllegalArgumentException with kube's aggregated message
     */
    public static Requirement validated(String key, Operator operator, List<String> values, String path) {
        List<String> errors = new ArrayList<>();
        List<String> keyErrors = Identifiers.qualifiedName(key);
        if (!keyErrors.isEmpty()) {
            errors.add(invalid(child(path, "key"), GoStrings.quote(key), String.join("; ", keyErrors)));
        }
        String valuePath = child(path, "values");
        String shown = goSlice(values);
        switch (operator) {
            case IN, NOT_IN -> {
                if (values.isEmpty()) {
                    errors.add(invalid(valuePath, shown, "for 'in', 'notin' operators, values set can't be empty"));
                }
            }
            case EQUALS, DOUBLE_EQUALS, NOT_EQUALS -> {
                if (values.size() != 1) {
                    errors.add(invalid(valuePath, shown, "exact-match compatibility requires one single value"));
                }
            }
            case EXISTS, DOES_NOT_EXIST -> {
                if (!values.isEmpty()) {
                    errors.add(invalid(valuePath, shown, "values set must be empty for exists and does not exist"));
                }
            }
            case GREATER_THAN, LESS_THAN -> {
                if (values.size() != 1) {
                    errors.add(invalid(valuePath, shown, "for 'Gt', 'Lt' operators, exactly one value is required"));
                }
                for (int i = 0; i < values.size(); i++) {
                    if (parseLong(values.get(i)) == null) {
                        errors.add(invalid(valuePath + "[" + i + "]", GoStrings.quote(values.get(i)),
                                "for 'Gt', 'Lt' operators, the value must be an integer"));
                    }
                }
            }
        }
        for (int i = 0; i < values.size(); i++) {
            List<String> valueErrors = Identifiers.labelValue(values.get(i));
            if (!valueErrors.isEmpty()) {
                errors.add(invalid(valuePath + "[" + i + "][" + key + "]", GoStrings.quote(values.get(i)),
                        String.join("; ", valueErrors)));
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(aggregate(errors));
        }
        return new Requirement(key, operator, values);
    }

    public String key() {
        return key;
    }

    public Operator operator() {
        return operator;
    }

    /** The values as given (the string syntax gives them sorted and without duplicates). */
    public List<String> values() {
        return values;
    }

    /** {@code Requirement.Matches}: whether a label set (no null values) meets this requirement. */
    public boolean matches(Map<String, String> labels) {
        return switch (operator) {
            case EQUALS, DOUBLE_EQUALS, IN -> {
                String v = labels.get(key);
                yield v != null && hasValue(v);
            }
            case NOT_EQUALS, NOT_IN -> {
                String v = labels.get(key);
                yield v == null || !hasValue(v);
            }
            case EXISTS -> labels.get(key) != null;
            case DOES_NOT_EXIST -> labels.get(key) == null;
            case GREATER_THAN, LESS_THAN -> compares(labels.get(key));
        };
    }

    private boolean hasValue(String v) {
        if (valueSet != null) {
            return valueSet.contains(v);
        }
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i).equals(v)) {
                return true;
            }
        }
        return false;
    }

    private boolean compares(String label) {
        Long actual = label == null ? null : parseLong(label);
        Long bound = values.size() == 1 ? parseLong(values.getFirst()) : null;
        if (actual == null || bound == null) {
            return false;
        }
        return operator == Operator.GREATER_THAN ? actual > bound : actual < bound;
    }

    /** {@code Requirement.String()}: {@code !k}, {@code k}, {@code k=v}, {@code k in (a,b)} with values sorted. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(key.length() + 8 + 6 * values.size());
        if (operator == Operator.DOES_NOT_EXIST) {
            b.append('!');
        }
        b.append(key);
        switch (operator) {
            case EXISTS, DOES_NOT_EXIST -> {
                return b.toString();
            }
            case EQUALS -> b.append('=');
            case DOUBLE_EQUALS -> b.append("==");
            case NOT_EQUALS -> b.append("!=");
            case IN -> b.append(" in (");
            case NOT_IN -> b.append(" notin (");
            case GREATER_THAN -> b.append('>');
            case LESS_THAN -> b.append('<');
        }
        b.append(values.size() == 1 ? values.getFirst() : String.join(",", sorted(values)));
        if (operator == Operator.IN || operator == Operator.NOT_IN) {
            b.append(')');
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Requirement r && key.equals(r.key) && operator == r.operator && values.equals(r.values);
    }

    @Override
    public int hashCode() {
        return (key.hashCode() * 31 + operator.hashCode()) * 31 + values.hashCode();
    }

    private static List<String> sorted(List<String> values) {
        List<String> copy = new ArrayList<>(values);
        copy.sort(null);
        return copy;
    }

    /** Go's {@code strconv.ParseInt(s, 10, 64)}, or null. */
    static Long parseLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String child(String path, String name) {
        return path == null ? name : path + "." + name;
    }

    private static String invalid(String path, String value, String detail) {
        return new FieldError(FieldError.Type.INVALID, path, value, detail).toString();
    }

    /** {@code %#v} of a {@code []string}. */
    private static String goSlice(List<String> values) {
        if (values.isEmpty()) {
            return "[]string(nil)";
        }
        List<String> quoted = new ArrayList<>(values.size());
        values.forEach(v -> quoted.add(GoStrings.quote(v)));
        return "[]string{" + String.join(", ", quoted) + "}";
    }

    /** {@code utilerrors.Aggregate.Error()}: one message as is, several (duplicates dropped) in brackets. */
    static String aggregate(List<String> messages) {
        Set<String> unique = new LinkedHashSet<>(messages);
        return unique.size() == 1 ? unique.iterator().next() : "[" + String.join(", ", unique) + "]";
    }
}
