package io.kapi.machinery.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.kapi.machinery.quantity.Quantity;
import java.util.List;

/**
 * kube's quantity library: {@code quantity("1.5Gi")}, {@code isQuantity}, {@code isInteger},
 * {@code asInteger}, {@code asApproximateFloat}, {@code sign}, {@code add}, {@code sub},
 * {@code isGreaterThan}, {@code isLessThan}, {@code compareTo}.
 */
final class QuantityLibrary implements CelLibrary {

    static final CelType QUANTITY = OpaqueType.create("kubernetes.Quantity");

    @Override
    public List<CelFunctionDecl> declarations() {
        CelType q = QUANTITY;
        return List.of(
                newFunctionDeclaration("quantity", newGlobalOverload("string_to_quantity", q, SimpleType.STRING)),
                newFunctionDeclaration("isQuantity",
                        newGlobalOverload("is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
                newFunctionDeclaration("isInteger", newMemberOverload("quantity_is_integer", SimpleType.BOOL, q)),
                newFunctionDeclaration("asInteger", newMemberOverload("quantity_get_integer", SimpleType.INT, q)),
                newFunctionDeclaration("asApproximateFloat",
                        newMemberOverload("quantity_get_float", SimpleType.DOUBLE, q)),
                newFunctionDeclaration("sign", newMemberOverload("quantity_get_sign", SimpleType.INT, q)),
                newFunctionDeclaration("add", newMemberOverload("quantity_add", q, q, q),
                        newMemberOverload("quantity_add_int", q, q, SimpleType.INT)),
                newFunctionDeclaration("sub", newMemberOverload("quantity_sub", q, q, q),
                        newMemberOverload("quantity_sub_int", q, q, SimpleType.INT)),
                newFunctionDeclaration("isGreaterThan",
                        newMemberOverload("quantity_is_greater_than", SimpleType.BOOL, q, q)),
                newFunctionDeclaration("isLessThan", newMemberOverload("quantity_is_less_than", SimpleType.BOOL, q, q)),
                newFunctionDeclaration("compareTo", newMemberOverload("quantity_compare_to", SimpleType.INT, q, q)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_quantity", String.class, QuantityLibrary::parse),
                CelFunctionBinding.from("is_quantity_string", String.class, text -> Quantity.check(text) == null),
                CelFunctionBinding.from("quantity_is_integer", Quantity.class, Quantity::isInteger),
                CelFunctionBinding.from("quantity_get_integer", Quantity.class, QuantityLibrary::asInteger),
                CelFunctionBinding.from("quantity_get_float", Quantity.class, q -> q.value().doubleValue()),
                CelFunctionBinding.from("quantity_get_sign", Quantity.class, q -> (long) q.signum()),
                CelFunctionBinding.from("quantity_add", Quantity.class, Quantity.class, Quantity::add),
                CelFunctionBinding.from("quantity_add_int", Quantity.class, Long.class,
                        (a, b) -> a.add(Quantity.of(b))),
                CelFunctionBinding.from("quantity_sub", Quantity.class, Quantity.class, Quantity::subtract),
                CelFunctionBinding.from("quantity_sub_int", Quantity.class, Long.class,
                        (a, b) -> a.subtract(Quantity.of(b))),
                CelFunctionBinding.from("quantity_is_greater_than", Quantity.class, Quantity.class,
                        (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("quantity_is_less_than", Quantity.class, Quantity.class,
                        (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from("quantity_compare_to", Quantity.class, Quantity.class,
                        (a, b) -> (long) Integer.signum(a.compareTo(b))));
    }

    private static Quantity parse(String text) throws CelEvaluationException {
        try {
            return Quantity.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CelEvaluationException(e.getMessage());
        }
    }

    private static long asInteger(Quantity q) throws CelEvaluationException {
        if (!q.isInteger()) {
            throw new CelEvaluationException("cannot convert value to integer");
        }
        return q.value().longValueExact();
    }
}
