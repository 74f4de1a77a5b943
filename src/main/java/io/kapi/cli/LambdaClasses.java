package io.kapi.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassBuilder;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.MethodModel;
import java.lang.classfile.TypeKind;
import java.lang.classfile.attribute.NestHostAttribute;
import java.lang.classfile.attribute.NestMembersAttribute;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.LambdaMetafactory;
import java.lang.reflect.AccessFlag;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A build step ({@link BuildResources}), not part of the server: turns the lambdas and method references
 * of the compiled classes into ordinary classes, as a JVM would spin them at their first use.
 *
 * <p>Why: a fresh JVM links each lambda call site by generating its class at run time (the JDK's class-file
 * library, interpreted until the JIT compiles it); a Kapi start links some 600 of them, a tenth of a first
 * in-process server's CPU, and the JIT's work on the generator besides. A class read from the jar costs a
 * fraction of that. (bin/kapi's start-up cache holds the spun classes too; this helps a JVM without one,
 * such as a test's.)
 *
 * <p>Each {@code invokedynamic} of {@link LambdaMetafactory} becomes a call of a static factory on a class
 * {@code Host$$Lambda$N} that implements the interface (and the marker interfaces and bridges an
 * {@code altMetafactory} call names) by calling the implementation method, with the argument and result
 * conversions the metafactory makes. The class joins the host's nest, so it may call the host's private
 * {@code lambda$} methods as the spun class does; a non-capturing lambda is one instance, as the
 * metafactory's is. Call sites are left as they are when their lambda is serializable, or when its
 * implementation is a method the host reaches other than as a nestmate or a public or package member
 * (inherited protected methods).
 */
final class LambdaClasses {

    private static final ClassDesc LMF = ClassDesc.of(LambdaMetafactory.class.getName());
    private static final String FACTORY = "lambda$factory";
    private static final String INSTANCE = "INSTANCE";

    private final Path classes;
    private final ClassFile files;
    private final Map<ClassDesc, Set<ClassDesc>> newNestMembers = new LinkedHashMap<>();

    private LambdaClasses(Path classes) {
        this.classes = classes;
        // the stack maps of rewritten methods need the classes they name: this JVM's or the directory's
        this.files = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
                .orElse(ClassHierarchyResolver.ofResourceParsing(this::openClass))));
    }

    private InputStream openClass(ClassDesc desc) {
        Path file = classFile(desc);
        try {
            return Files.exists(file) ? Files.newInputStream(file) : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * Rewrites every class under {@code classes} that has lambda call sites, writing their classes beside
     * it; the classes they refer to must be there or on this JVM's class path. Returns how many call sites
     * became classes.
     */
    static int rewrite(Path classes) throws IOException {
        LambdaClasses step = new LambdaClasses(classes);
        List<Path> files;
        try (Stream<Path> all = Files.walk(classes)) {
            files = all.filter(f -> f.toString().endsWith(".class")).sorted().toList();
        }
        int count = 0;
        for (Path file : files) {
            count += step.rewriteClass(file);
        }
        step.addNestMembers();
        return count;
    }

    private int rewriteClass(Path file) throws IOException {
        ClassModel model = files.parse(Files.readAllBytes(file));
        ClassDesc host = model.thisClass().asSymbol();
        ClassDesc nestHost = model.findAttribute(Attributes.nestHost())
                .map(a -> a.nestHost().asSymbol()).orElse(host);
        int[] next = {0};
        List<ClassDesc> generatedClasses = new ArrayList<>();
        byte[] rewritten = files.transformClass(model, ClassTransform.transformingMethodBodies((code, element) -> {
            if (element instanceof InvokeDynamicInstruction indy) {
                Optional<Lambda> lambda = Lambda.of(indy, host);
                if (lambda.isPresent() && reachable(lambda.get(), host)) {
                    ClassDesc generated = ClassDesc.of(host.packageName(), host.displayName() + "$$Lambda$" + next[0]++);
                    writeLambdaClass(model, generated, nestHost, lambda.get());
                    generatedClasses.add(generated);
                    code.invokestatic(generated, FACTORY, indy.typeSymbol());
                    return;
                }
            }
            code.with(element);
        }));
        if (generatedClasses.isEmpty()) {
            return 0;
        }
        newNestMembers.computeIfAbsent(nestHost, k -> new LinkedHashSet<>()).addAll(generatedClasses);
        Files.write(file, rewritten);
        return generatedClasses.size();
    }

    /** Adds the generated classes to their nest hosts' NestMembers, once every class was rewritten. */
    private void addNestMembers() throws IOException {
        for (Map.Entry<ClassDesc, Set<ClassDesc>> e : newNestMembers.entrySet()) {
            Path file = classFile(e.getKey());
            ClassModel model = files.parse(Files.readAllBytes(file));
            Set<ClassDesc> members = new LinkedHashSet<>();
            model.findAttribute(Attributes.nestMembers())
                    .ifPresent(a -> a.nestMembers().forEach(m -> members.add(m.asSymbol())));
            members.addAll(e.getValue());
            Files.write(file, files.transformClass(model, new ClassTransform() {
                @Override
                public void accept(ClassBuilder builder, ClassElement element) {
                    if (!(element instanceof NestMembersAttribute)) {
                        builder.with(element);
                    }
                }

                @Override
                public void atEnd(ClassBuilder builder) {
                    builder.with(NestMembersAttribute.ofSymbols(List.copyOf(members)));
                }
            }));
        }
    }

    private Path classFile(ClassDesc desc) {
        String internal = desc.descriptorString().substring(1, desc.descriptorString().length() - 1);
        return classes.resolve(internal + ".class");
    }

    /**
     * Whether a class in the host's package and nest may call the implementation as the spun class
     * does: it is in the nest or the package, or public in a public class, not an inherited protected one.
     */
    private boolean reachable(Lambda lambda, ClassDesc host) {
        DirectMethodHandleDesc impl = lambda.impl();
        if (impl.owner().packageName().equals(host.packageName())) {
            return true;
        }
        return isPublic(impl);
    }

    private final Map<ClassDesc, Optional<ClassModel>> parsed = new LinkedHashMap<>();

    /** Whether the implementation is public in a public class (read from the class path). */
    private boolean isPublic(DirectMethodHandleDesc impl) {
        Optional<ClassModel> owner = parsed.computeIfAbsent(impl.owner(), this::readClass);
        if (owner.isEmpty() || !owner.get().flags().has(AccessFlag.PUBLIC)) {
            return false;
        }
        for (MethodModel m : owner.get().methods()) {
            if (m.methodName().equalsString(impl.methodName())
                    && m.methodType().equalsString(impl.lookupDescriptor())) {
                return m.flags().has(AccessFlag.PUBLIC);
            }
        }
        return false; // inherited: left to the metafactory
    }

    private Optional<ClassModel> readClass(ClassDesc desc) {
        String internal = desc.descriptorString().substring(1, desc.descriptorString().length() - 1);
        try (InputStream in = Files.exists(classFile(desc)) ? Files.newInputStream(classFile(desc))
                : ClassLoader.getSystemResourceAsStream(internal + ".class")) {
            return in == null ? Optional.empty() : Optional.of(files.parse(in.readAllBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + internal, e);
        }
    }

    /** What one lambda call site asks the metafactory for. */
    private record Lambda(String interfaceMethod, MethodTypeDesc factoryType, MethodTypeDesc samType,
                          DirectMethodHandleDesc impl, MethodTypeDesc instantiatedType, List<ClassDesc> markers,
                          List<MethodTypeDesc> bridges) {

        /** The call site's lambda, or empty when it is not one this step rewrites. */
        static Optional<Lambda> of(InvokeDynamicInstruction indy, ClassDesc host) {
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
            return Optional.of(new Lambda(indy.name().stringValue(), indy.typeSymbol(), sam, impl, instantiated,
                    List.copyOf(markers), List.copyOf(bridges)));
        }
    }

    private void writeLambdaClass(ClassModel hostModel, ClassDesc generated, ClassDesc nestHost, Lambda lambda) {
        MethodTypeDesc factory = lambda.factoryType();
        ClassDesc iface = factory.returnType();
        List<ClassDesc> captured = factory.parameterList();
        MethodTypeDesc init = MethodTypeDesc.of(ConstantDescs.CD_void, captured);
        byte[] bytes = files.build(generated, cls -> {
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
        try {
            Files.write(classFile(generated), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The interface method's body: the captured values and the arguments, converted, to the implementation. */
    private static void forward(CodeBuilder code, ClassDesc generated, List<ClassDesc> captured, MethodTypeDesc type,
                                Lambda lambda) {
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
        ClassDesc implReturn;
        switch (impl.kind()) {
            case STATIC, INTERFACE_STATIC -> {
                code.invokestatic(impl.owner(), impl.methodName(), MethodTypeDesc.ofDescriptor(impl.lookupDescriptor()),
                        impl.isOwnerInterface());
                implReturn = MethodTypeDesc.ofDescriptor(impl.lookupDescriptor()).returnType();
            }
            case VIRTUAL, SPECIAL -> {
                code.invokevirtual(impl.owner(), impl.methodName(), MethodTypeDesc.ofDescriptor(impl.lookupDescriptor()));
                implReturn = MethodTypeDesc.ofDescriptor(impl.lookupDescriptor()).returnType();
            }
            case INTERFACE_VIRTUAL, INTERFACE_SPECIAL -> {
                code.invokeinterface(impl.owner(), impl.methodName(), MethodTypeDesc.ofDescriptor(impl.lookupDescriptor()));
                implReturn = MethodTypeDesc.ofDescriptor(impl.lookupDescriptor()).returnType();
            }
            case CONSTRUCTOR -> {
                code.invokespecial(impl.owner(), ConstantDescs.INIT_NAME, MethodTypeDesc.ofDescriptor(impl.lookupDescriptor()));
                implReturn = impl.owner();
            }
            default -> throw new IllegalStateException("not a method handle kind a lambda uses: " + impl.kind());
        }
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
