package io.kapi.machinery.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.time.Duration;
import java.util.List;

/**
 * kube's lists library: {@code isSorted}, {@code sum}, {@code min}, {@code max}, {@code indexOf},
 * {@code lastIndexOf} on lists of comparable values (numbers, strings, bools, timestamps, durations,
 * quantities).
 */
final class ListsLibrary implements CelLibrary {

    private static final CelType T = TypeParamType.create("T");
    private static final CelType LIST_T = ListType.create(T);

    @Override
    public List<CelFunctionDecl> declarations() {
        return List.of(
                newFunctionDeclaration("isSorted", newMemberOverload("list_is_sorted", SimpleType.BOOL, LIST_T)),
                newFunctionDeclaration("sum", newMemberOverload("list_sum", T, LIST_T)),
                newFunctionDeclaration("min", newMemberOverload("list_min", T, LIST_T)),
                newFunctionDeclaration("max", newMemberOverload("list_max", T, LIST_T)),
                newFunctionDeclaration("indexOf", newMemberOverload("list_index_of", SimpleType.INT, LIST_T, T)),
                newFunctionDeclaration("lastIndexOf",
                        newMemberOverload("list_last_index_of", SimpleType.INT, LIST_T, T)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("list_is_sorted", List.class, ListsLibrary::isSorted),
                CelFunctionBinding.from("list_sum", List.class, ListsLibrary::sum),
                CelFunctionBinding.from("list_min", List.class, l -> extreme(l, -1, "min")),
                CelFunctionBinding.from("list_max", List.class, l -> extreme(l, 1, "max")),
                CelFunctionBinding.from("list_index_of", List.class, Object.class, (l, v) -> (long) l.indexOf(v)),
                CelFunctionBinding.from("list_last_index_of", List.class, Object.class,
                        (l, v) -> (long) l.lastIndexOf(v)));
    }

    private static boolean isSorted(List<?> list) throws CelEvaluationException {
        for (int i = 1; i < list.size(); i++) {
            if (compare(list.get(i - 1), list.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    private static Object sum(List<?> list) throws CelEvaluationException {
        if (list.isEmpty()) {
            return 0L;
        }
        Object total = list.getFirst();
        for (int i = 1; i < list.size(); i++) {
            Object v = list.get(i);
            total = switch (total) {
                case Long a when v instanceof Long b -> Math.addExact(a, b);
                case Double a when v instanceof Double b -> a + b;
                case Duration a when v instanceof Duration b -> a.plus(b);
                case io.kapi.machinery.quantity.Quantity a when v instanceof io.kapi.machinery.quantity.Quantity b -> a.add(b);
                default -> throw new CelEvaluationException("sum: unsupported element type " + v.getClass().getSimpleName());
            };
        }
        return total;
    }

    private static Object extreme(List<?> list, int sign, String name) throws CelEvaluationException {
        if (list.isEmpty()) {
            throw new CelEvaluationException(name + "(list) called on empty list");
        }
        Object best = list.getFirst();
        for (Object v : list) {
            if (Integer.signum(compare(v, best)) == sign) {
                best = v;
            }
        }
        return best;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) throws CelEvaluationException {
        if (a instanceof Comparable ca && b != null && a.getClass() == b.getClass()) {
            return ca.compareTo(b);
        }
        throw new CelEvaluationException("no such overload: elements are not comparable");
    }
}
