package io.kapi.build;

import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDesc;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.LambdaMetafactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one lambda call site asks {@link LambdaMetafactory} for ({@link LambdaClasses}): the interface
 * method, the captured values' types (the factory type's parameters), the implementation and the types
 * the lambda is used at, and an {@code altMetafactory} call's marker interfaces and bridges.
 */
record LambdaCallSite(String interfaceMethod, MethodTypeDesc factoryType, MethodTypeDesc samType,
                      DirectMethodHandleDesc impl, MethodTypeDesc instantiatedType, List<ClassDesc> markers,
                      List<MethodTypeDesc> bridges) {

    private static final ClassDesc LMF = ClassDesc.of(LambdaMetafactory.class.getName());

    /** The call site's lambda, or empty when it is not one this step rewrites. */
    static Optional<LambdaCallSite> of(InvokeDynamicInstruction indy, ClassDesc host) {
        DirectMethodHandleDesc bootstrap = indy.bootstrapMethod();
        if (!bootstrap.owner().equals(LMF)) {
            return Optional.empty();
        }
        List<ConstantDesc> args = indy.bootstrapArgs();
        if (args.size() < 3 || !(args.get(0) instanceof MethodTypeDesc sam)
                || !(args.get(1) instanceof DirectMethodHandleDesc impl)
                || !(args.get(2) instanceof MethodTypeDesc instantiated)) {
            return Optional.empty();
        }
        List<ClassDesc> markers = new ArrayList<>();
        List<MethodTypeDesc> bridges = new ArrayList<>();
        if (bootstrap.methodName().equals("altMetafactory")) {
            int flags = (Integer) args.get(3);
            if ((flags & LambdaMetafactory.FLAG_SERIALIZABLE) != 0) {
                return Optional.empty();
            }
            int i = 4;
            if ((flags & LambdaMetafactory.FLAG_MARKERS) != 0) {
                int n = (Integer) args.get(i++);
                for (int k = 0; k < n; k++) {
                    markers.add((ClassDesc) args.get(i++));
                }
            }
            if ((flags & LambdaMetafactory.FLAG_BRIDGES) != 0) {
                int n = (Integer) args.get(i++);
                for (int k = 0; k < n; k++) {
                    bridges.add((MethodTypeDesc) args.get(i++));
                }
            }
        } else if (!bootstrap.methodName().equals("metafactory")) {
            return Optional.empty();
        }
        boolean special = impl.kind() == DirectMethodHandleDesc.Kind.SPECIAL
                || impl.kind() == DirectMethodHandleDesc.Kind.INTERFACE_SPECIAL;
        if (special && !impl.owner().equals(host)) {
            return Optional.empty(); // a super call: only the host may make it
        }
        return Optional.of(new LambdaCallSite(indy.name().stringValue(), indy.typeSymbol(), sam, impl, instantiated,
                List.copyOf(markers), List.copyOf(bridges)));
    }
}
