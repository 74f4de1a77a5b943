package io.kapi.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build step that turns lambda call sites into classes: a sample with every shape of lambda the
 * metafactory takes (captures of each kind, boxing, unboxing, widening, constructor and method references,
 * nest members, interfaces, markers and bridges) gives the same results before and after, with no
 * metafactory call left but the serializable one.
 */
class LambdaClassesTest {

    private static final String SAMPLE = """
            package sample;

            import java.io.Serializable;
            import java.util.*;
            import java.util.function.*;

            public class Shapes {
                interface Marker {
                }

                interface Named {
                    String name();

                    default Supplier<String> greeting(String who) {
                        return () -> hello(who) + name();
                    }

                    private String hello(String who) {
                        return "hello " + who + " from ";
                    }

                    static Function<String, String> upper() {
                        return s -> s.toUpperCase(Locale.ROOT);
                    }
                }

                interface Box<T extends Comparable<T>> {
                    T open(T t);
                }

                interface IntBox extends Box<Integer> {
                    @Override
                    Integer open(Integer t);
                }

                enum Op {
                    PLUS((a, b) -> a + b), TIMES(Math::multiplyExact);

                    final IntBinaryOperator f;

                    Op(IntBinaryOperator f) {
                        this.f = f;
                    }
                }

                private final String prefix;

                Shapes(String prefix) {
                    this.prefix = prefix;
                }

                private String tag(Object o) {
                    return prefix + o;
                }

                class Inner {
                    Function<Object, String> tagger() {
                        return Shapes.this::tag;
                    }
                }

                static Supplier<String> stateless() {
                    return () -> "same";
                }

                private static long twice(long v) {
                    return v * 2;
                }

                public static List<String> run() {
                    List<String> out = new ArrayList<>();
                    int i = 3;
                    long l = 5_000_000_000L;
                    double d = 1.5;
                    char c = 'x';
                    boolean b = true;
                    String s = "s";
                    Object[] arr = {1, 2};
                    out.add(((Supplier<String>) () -> i + ":" + l + ":" + d + ":" + c + ":" + b + ":" + s + arr.length).get());
                    out.add(String.valueOf(stateless() == stateless()));
                    Function<Integer, Integer> inc = x -> x + 1;
                    out.add(String.valueOf(inc.apply(41)));
                    ToLongFunction<Integer> widen = Integer::intValue;
                    out.add(String.valueOf(widen.applyAsLong(7)));
                    Function<String, Integer> parse = Integer::parseInt;
                    out.add(String.valueOf(parse.apply("12") + 1));
                    BiFunction<Integer, Integer, Integer> max = Math::max;
                    out.add(String.valueOf(max.apply(3, 9)));
                    LongUnaryOperator tw = Shapes::twice;
                    out.add(String.valueOf(tw.applyAsLong(l)));
                    IntToDoubleFunction half = v -> v / 2.0;
                    out.add(String.valueOf(half.applyAsDouble(3)));
                    IntFunction<Object> boxed = v -> v;
                    out.add(boxed.apply(4).getClass().getSimpleName());
                    ToIntFunction<Object> fromNumber = o -> (Integer) o;
                    out.add(String.valueOf(fromNumber.applyAsInt(8)));
                    Function<String, Integer> length = String::length;
                    out.add(String.valueOf(length.apply("four")));
                    UnaryOperator<String> concat = s::concat;
                    out.add(concat.apply("t"));
                    Supplier<List<String>> list = ArrayList::new;
                    out.add(list.get().getClass().getSimpleName());
                    IntFunction<String[]> array = String[]::new;
                    out.add(String.valueOf(array.apply(3).length));
                    Function<String, StringBuilder> builder = StringBuilder::new;
                    out.add(builder.apply("sb").reverse().toString());
                    Shapes shapes = new Shapes("p-");
                    out.add(shapes.new Inner().tagger().apply(1));
                    Function<Object, String> bound = shapes::tag;
                    out.add(bound.apply("q"));
                    Named named = () -> "named";
                    out.add(named.greeting("me").get());
                    out.add(Named.upper().apply("up"));
                    Runnable marked = (Runnable & Marker) () -> out.add("ran");
                    marked.run();
                    out.add(String.valueOf(marked instanceof Marker));
                    IntBox box = v -> v * 10;
                    @SuppressWarnings({"unchecked", "rawtypes"})
                    Box raw = box;
                    out.add(String.valueOf(raw.open(4)));
                    Supplier<String> serial = (Supplier<String> & Serializable) () -> "serial";
                    out.add(serial.get());
                    out.add(Op.PLUS.f.applyAsInt(2, 3) + "," + Op.TIMES.f.applyAsInt(2, 3));
                    BiConsumer<List<String>, String> adder = List::add;
                    adder.accept(out, "added");
                    Predicate<String> empty = String::isEmpty;
                    out.add(String.valueOf(empty.negate().test("x")));
                    Comparator<String> byLength = Comparator.comparing(String::length);
                    List<String> sorted = new ArrayList<>(List.of("ccc", "a", "bb"));
                    sorted.sort(byLength.thenComparing(Comparator.naturalOrder()));
                    out.add(sorted.toString());
                    return out;
                }
            }
            """;

    @Test
    void rewrittenLambdasBehaveAsTheMetafactorysAndNoneIsLeftButTheSerializable(@TempDir Path dir) throws Exception {
        Path original = dir.resolve("original");
        Path rewritten = dir.resolve("rewritten");
        compile(dir, original);
        compile(dir, rewritten);

        int sites = LambdaClasses.rewrite(rewritten);

        assertTrue(sites >= 25, "call sites rewritten: " + sites);
        List<String> expected = List.of("3:5000000000:1.5:x:true:s2", "true", "42", "7", "13", "9", "10000000000", "1.5",
                "Integer", "8", "4", "st", "ArrayList", "3", "bs", "p-1", "p-q", "hello me from named", "UP", "ran", "true",
                "40", "serial", "5,6", "added", "true", "[a, bb, ccc]");
        assertEquals(expected, run(original));
        assertEquals(expected, run(rewritten));
        // the serializable lambda, and the call site of the method that deserializes it
        assertEquals(List.of("sample/Shapes.run: altMetafactory", "sample/Shapes.$deserializeLambda$: altMetafactory"),
                metafactoryCalls(rewritten));
        assertTrue(Files.exists(rewritten.resolve("sample/Shapes$$Lambda$0.class")));
        assertFalse(metafactoryCalls(original).isEmpty());
    }

    @Test
    void aSecondRunChangesNothing(@TempDir Path dir) throws Exception {
        Path classes = dir.resolve("classes");
        compile(dir, classes);
        LambdaClasses.rewrite(classes);
        byte[] once = Files.readAllBytes(classes.resolve("sample/Shapes.class"));
        List<String> results = run(classes);

        assertEquals(0, LambdaClasses.rewrite(classes));
        assertArrayEquals(once, Files.readAllBytes(classes.resolve("sample/Shapes.class")));
        assertEquals(results, run(classes));
    }

    private static void compile(Path dir, Path out) throws IOException {
        Path source = dir.resolve("src/sample/Shapes.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, SAMPLE);
        Files.createDirectories(out);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", out.toString(), source.toString());
        assertEquals(0, rc, "javac failed");
    }

    @SuppressWarnings("unchecked")
    private static List<String> run(Path classes) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            Method run = loader.loadClass("sample.Shapes").getMethod("run");
            return (List<String>) run.invoke(null);
        }
    }

    /** The metafactory calls left in the classes under {@code classes}: "Class.method: bootstrap". */
    private static List<String> metafactoryCalls(Path classes) throws IOException {
        List<String> calls = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                ClassModel model = ClassFile.of().parse(Files.readAllBytes(f));
                model.methods().forEach(m -> m.code().ifPresent((CodeModel code) -> code.forEach(e -> {
                    if (e instanceof InvokeDynamicInstruction indy
                            && indy.bootstrapMethod().owner().displayName().equals("LambdaMetafactory")) {
                        calls.add(model.thisClass().asInternalName() + "." + m.methodName().stringValue() + ": "
                                + indy.bootstrapMethod().methodName());
                    }
                })));
            }
        }
        return calls;
    }
}
