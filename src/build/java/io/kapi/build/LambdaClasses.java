package io.kapi.build;

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
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.NestMembersAttribute;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.DirectMethodHandleDesc;
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
 * library, interpreted until the JIT compiles it); a Kapi start links some 450 of them, a tenth of a first
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
                Optional<LambdaCallSite> lambda = LambdaCallSite.of(indy, host);
                if (lambda.isPresent() && reachable(lambda.get(), host)) {
                    ClassDesc generated = ClassDesc.of(host.packageName(), host.displayName() + "$$Lambda$" + next[0]++);
                    write(classFile(generated), LambdaClassWriter.write(files, model, generated, nestHost, lambda.get()));
                    generatedClasses.add(generated);
                    code.invokestatic(generated, LambdaClassWriter.FACTORY, indy.typeSymbol());
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
        return classes.resolve(resourceName(desc));
    }

    /** {@code a/b/C.class} for class {@code a.b.C}. */
    private static String resourceName(ClassDesc desc) {
        String descriptor = desc.descriptorString();
        return descriptor.substring(1, descriptor.length() - 1) + ".class";
    }

    /**
     * Whether a class in the host's package and nest may call the implementation as the spun class
     * does: it is in the nest or the package, or public in a public class, not an inherited protected one.
     */
    private boolean reachable(LambdaCallSite lambda, ClassDesc host) {
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

    /** A class of the directory or of this JVM's class path, parsed; empty when neither has it. */
    private Optional<ClassModel> readClass(ClassDesc desc) {
        InputStream opened = openClass(desc);
        try (InputStream in = opened != null ? opened : ClassLoader.getSystemResourceAsStream(resourceName(desc))) {
            return in == null ? Optional.empty() : Optional.of(files.parse(in.readAllBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resourceName(desc), e);
        }
    }

    private static void write(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
