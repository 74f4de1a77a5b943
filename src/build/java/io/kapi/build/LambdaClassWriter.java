package io.kapi.build;

import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.TypeKind;
import java.lang.classfile.attribute.NestHostAttribute;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.List;

/**
 * The class a lambda call site becomes ({@link LambdaClasses}), as the metafactory would spin it: final and
 * synthetic, in the host's nest, implementing the interface and the call site's marker interfaces, the
 * captured values in fields, a static factory ({@link #FACTORY}, the one instance of a non-capturing
 * lambda), and the interface method and each bridge calling the implementation with the metafactory's
 * conversions of arguments and result.
 */
final class LambdaClassWriter {

    /** The static factory that replaces the call site, of the call site's factory type. */
    static final String FACTORY = "lambda$factory";
    private static final String INSTANCE = "INSTANCE";

    private LambdaClassWriter() {
    }

    /** The class of {@code lambda}, named {@code generated}, in the nest of {@code nestHost}; as the host's version. */
    static byte[] write(ClassFile files, ClassModel hostModel, ClassDesc generated, ClassDesc nestHost,
                        LambdaCallSite lambda) {
        MethodTypeDesc factory = lambda.factoryType();
        ClassDesc iface = factory.returnType();
        List<ClassDesc> captured = factory.parameterList();
        MethodTypeDesc init = MethodTypeDesc.of(ConstantDescs.CD_void, captured);
        return files.build(generated, cls -> {
            cls.withVersion(hostModel.majorVersion(), hostModel.minorVersion());
            cls.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC | ClassFile.ACC_SUPER);
            List<ClassDesc> interfaces = new ArrayList<>();
            interfaces.add(iface);
            lambda.markers().stream().filter(m -> !interfaces.contains(m)).forEach(interfaces::add);
            cls.withInterfaceSymbols(interfaces);
            cls.with(NestHostAttribute.of(nestHost));
            hostModel.findAttribute(Attributes.sourceFile()).ifPresent(cls::with); // for stack traces
            for (int i = 0; i < captured.size(); i++) {
                cls.withField("arg$" + i, captured.get(i), ClassFile.ACC_PRIVATE | ClassFile.ACC_FINAL);
            }
            cls.withMethodBody(ConstantDescs.INIT_NAME, init, ClassFile.ACC_PRIVATE, code -> {
                code.aload(0).invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void);
                int slot = 1;
                for (int i = 0; i < captured.size(); i++) {
                    code.aload(0);
                    code.loadLocal(TypeKind.from(captured.get(i)), slot);
                    code.putfield(generated, "arg$" + i, captured.get(i));
                    slot += TypeKind.from(captured.get(i)).slotSize();
                }
                code.return_();
            });
            if (captured.isEmpty()) {
                cls.withField(INSTANCE, generated, ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC | ClassFile.ACC_FINAL);
                cls.withMethodBody(ConstantDescs.CLASS_INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_STATIC, code -> code
                        .new_(generated).dup().invokespecial(generated, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                        .putstatic(generated, INSTANCE, generated).return_());
            }
            cls.withMethodBody(FACTORY, factory, ClassFile.ACC_STATIC, code -> {
                if (captured.isEmpty()) {
                    code.getstatic(generated, INSTANCE, generated).areturn();
                    return;
                }
                code.new_(generated).dup();
                int slot = 0;
                for (ClassDesc c : captured) {
                    code.loadLocal(TypeKind.from(c), slot);
                    slot += TypeKind.from(c).slotSize();
                }
                code.invokespecial(generated, ConstantDescs.INIT_NAME, init).areturn();
            });
            List<MethodTypeDesc> types = new ArrayList<>();
            types.add(lambda.samType());
            lambda.bridges().stream().filter(b -> !types.contains(b)).forEach(types::add);
            for (MethodTypeDesc type : types) {
                cls.withMethodBody(lambda.interfaceMethod(), type, ClassFile.ACC_PUBLIC,
                        code -> forward(code, generated, captured, type, lambda));
            }
        });
    }

    /** The interface method's body: the captured values and the arguments, converted, to the implementation. */
    private static void forward(CodeBuilder code, ClassDesc generated, List<ClassDesc> captured, MethodTypeDesc type,
                                LambdaCallSite lambda) {
        DirectMethodHandleDesc impl = lambda.impl();
        // the receiver first for an instance method; a constructor's parameters
        List<ClassDesc> implParams = impl.invocationType().parameterList();
        if (impl.kind() == DirectMethodHandleDesc.Kind.CONSTRUCTOR) {
            code.new_(impl.owner()).dup();
        }
        for (int i = 0; i < captured.size(); i++) {
            code.aload(0).getfield(generated, "arg$" + i, captured.get(i));
            convert(code, captured.get(i), implParams.get(i), captured.get(i));
        }
        int slot = 1;
        List<ClassDesc> params = type.parameterList();
        List<ClassDesc> instantiated = lambda.instantiatedType().parameterList();
        for (int i = 0; i < params.size(); i++) {
            code.loadLocal(TypeKind.from(params.get(i)), slot);
            slot += TypeKind.from(params.get(i)).slotSize();
            convert(code, params.get(i), implParams.get(captured.size() + i), instantiated.get(i));
        }
        MethodTypeDesc implType = MethodTypeDesc.ofDescriptor(impl.lookupDescriptor());
        switch (impl.kind()) {
            case STATIC, INTERFACE_STATIC -> code.invokestatic(impl.owner(), impl.methodName(), implType,
                    impl.isOwnerInterface());
            case VIRTUAL, SPECIAL -> code.invokevirtual(impl.owner(), impl.methodName(), implType);
            case INTERFACE_VIRTUAL, INTERFACE_SPECIAL -> code.invokeinterface(impl.owner(), impl.methodName(), implType);
            case CONSTRUCTOR -> code.invokespecial(impl.owner(), ConstantDescs.INIT_NAME, implType);
            default -> throw new IllegalStateException("not a method handle kind a lambda uses: " + impl.kind());
        }
        ClassDesc implReturn = impl.kind() == DirectMethodHandleDesc.Kind.CONSTRUCTOR ? impl.owner() : implType.returnType();
        ClassDesc samReturn = type.returnType();
        if (samReturn.equals(ConstantDescs.CD_void)) {
            if (!implReturn.equals(ConstantDescs.CD_void)) {
                if (TypeKind.from(implReturn).slotSize() == 2) {
                    code.pop2();
                } else {
                    code.pop();
                }
            }
            code.return_();
            return;
        }
        convert(code, implReturn, samReturn, samReturn);
        code.return_(TypeKind.from(samReturn));
    }

    /**
     * The metafactory's conversion of a value of type {@code arg} to {@code target}, where the lambda's
     * instantiated type is {@code functional}: primitive widening, boxing, unboxing (through the target's
     * wrapper or {@link Number}) and reference casts.
     */
    private static void convert(CodeBuilder code, ClassDesc arg, ClassDesc target, ClassDesc functional) {
        if (arg.equals(target) && arg.equals(functional)) {
            return;
        }
        if (arg.equals(ConstantDescs.CD_void) || target.equals(ConstantDescs.CD_void)) {
            return;
        }
        if (arg.isPrimitive()) {
            if (target.isPrimitive()) {
                widen(code, arg, target);
            } else {
                ClassDesc primitiveOfTarget = unboxed(target);
                if (primitiveOfTarget != null) {
                    widen(code, arg, primitiveOfTarget);
                    box(code, primitiveOfTarget);
                } else {
                    box(code, arg);
                    cast(code, boxed(arg), target);
                }
            }
            return;
        }
        ClassDesc source;
        if (functional.isPrimitive()) {
            source = arg;
        } else {
            source = functional;
            cast(code, arg, source);
        }
        if (target.isPrimitive()) {
            ClassDesc primitiveOfSource = unboxed(source);
            if (primitiveOfSource != null) {
                unbox(code, source, primitiveOfSource);
                widen(code, primitiveOfSource, target);
            } else {
                boolean numeric = !target.equals(ConstantDescs.CD_boolean) && !target.equals(ConstantDescs.CD_char);
                ClassDesc intermediate = numeric ? ConstantDescs.CD_Number : boxed(target);
                cast(code, source, intermediate);
                unbox(code, intermediate, target);
            }
        } else {
            cast(code, source, target);
        }
    }

    private static void cast(CodeBuilder code, ClassDesc from, ClassDesc to) {
        if (!from.equals(to) && !to.equals(ConstantDescs.CD_Object)) {
            code.checkcast(to);
        }
    }

    private static final List<ClassDesc[]> WRAPPERS = List.of(
            new ClassDesc[] {ConstantDescs.CD_boolean, ConstantDescs.CD_Boolean},
            new ClassDesc[] {ConstantDescs.CD_byte, ConstantDescs.CD_Byte},
            new ClassDesc[] {ConstantDescs.CD_short, ConstantDescs.CD_Short},
            new ClassDesc[] {ConstantDescs.CD_char, ConstantDescs.CD_Character},
            new ClassDesc[] {ConstantDescs.CD_int, ConstantDescs.CD_Integer},
            new ClassDesc[] {ConstantDescs.CD_long, ConstantDescs.CD_Long},
            new ClassDesc[] {ConstantDescs.CD_float, ConstantDescs.CD_Float},
            new ClassDesc[] {ConstantDescs.CD_double, ConstantDescs.CD_Double});

    private static ClassDesc boxed(ClassDesc primitive) {
        return WRAPPERS.stream().filter(w -> w[0].equals(primitive)).findFirst().orElseThrow()[1];
    }

    /** The primitive a wrapper class holds, or null for any other class. */
    private static ClassDesc unboxed(ClassDesc wrapper) {
        return WRAPPERS.stream().filter(w -> w[1].equals(wrapper)).findFirst().map(w -> w[0]).orElse(null);
    }

    private static void box(CodeBuilder code, ClassDesc primitive) {
        ClassDesc wrapper = boxed(primitive);
        code.invokestatic(wrapper, "valueOf", MethodTypeDesc.of(wrapper, primitive));
    }

    /** Unboxes a value of {@code owner} (a wrapper or Number) to {@code primitive}. */
    private static void unbox(CodeBuilder code, ClassDesc owner, ClassDesc primitive) {
        code.invokevirtual(owner, primitive.displayName() + "Value", MethodTypeDesc.of(primitive));
    }

    private static void widen(CodeBuilder code, ClassDesc from, ClassDesc to) {
        TypeKind f = TypeKind.from(from);
        TypeKind t = TypeKind.from(to);
        if (f.asLoadable() != t.asLoadable()) {
            code.conversion(f.asLoadable(), t.asLoadable());
        }
    }
}
