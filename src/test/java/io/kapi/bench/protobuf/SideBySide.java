package io.kapi.bench.protobuf;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link ListEncodeBenchmark} of two or more checkouts side by side in one JVM, for a machine too busy for
 * separate JMH runs to compare: each checkout's classes in their own class loader, their benchmark methods
 * called in turn (who goes first alternating), timed by the calling thread's CPU time, which a busy
 * machine disturbs far less than wall time. Prints each method's median and quartiles per checkout, and
 * each checkout's median against the first's. Run by {@code bench/protobuf-ab.sh}.
 *
 * <p>Arguments: {@code checkout,checkout,... method,method,... managedFields compact rounds warmup}; a
 * checkout is a directory with {@code target/classes}, {@code target/test-classes} and
 * {@code target/test-cp.txt} (Maven's test class path). Setting {@code compact} reads the pods again as
 * the watch cache keeps them, whether or not the checkout's benchmark knows that parameter.
 */
public final class SideBySide {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        String[] checkouts = args[0].split(",");
        String[] methods = args[1].split(",");
        boolean managedFields = Boolean.parseBoolean(args[2]);
        boolean compact = Boolean.parseBoolean(args[3]);
        int rounds = Integer.parseInt(args[4]);
        int warmup = Integer.parseInt(args[5]);
        int n = checkouts.length;
        Object[] bench = new Object[n];
        Method[][] calls = new Method[n][methods.length];
        for (int i = 0; i < n; i++) {
            ClassLoader loader = loader(Path.of(checkouts[i]));
            Class<?> type = loader.loadClass(ListEncodeBenchmark.class.getName());
            bench[i] = type.getConstructor().newInstance();
            type.getField("pods").setInt(bench[i], 5000);
            type.getField("managedFields").setBoolean(bench[i], managedFields);
            type.getMethod("setUp").invoke(bench[i]);
            if (compact) {
                compact(loader, type, bench[i]);
            }
            for (int k = 0; k < methods.length; k++) {
                calls[i][k] = type.getMethod(methods[k]);
            }
        }
        double[][][] ms = new double[n][methods.length][rounds];
        for (int r = -warmup; r < rounds; r++) {
            for (int k = 0; k < methods.length; k++) {
                for (int j = 0; j < n; j++) {
                    int i = (r & 1) == 0 ? j : n - 1 - j;
                    long t0 = THREADS.getCurrentThreadCpuTime();
                    calls[i][k].invoke(bench[i]);
                    long cpu = THREADS.getCurrentThreadCpuTime() - t0;
                    if (r >= 0) {
                        ms[i][k][r] = cpu / 1e6;
                    }
                }
            }
        }
        for (int k = 0; k < methods.length; k++) {
            double first = median(ms[0][k]);
            for (int i = 0; i < n; i++) {
                double[] s = ms[i][k].clone();
                Arrays.sort(s);
                System.out.printf("managedFields=%s compact=%s %-14s %-28s median %7.1f ms (p25 %7.1f, p75 %7.1f) %.2f x%n",
                        managedFields, compact, methods[k], checkouts[i], s[rounds / 2], s[rounds / 4],
                        s[3 * rounds / 4], s[rounds / 2] / first);
            }
        }
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static ClassLoader loader(Path checkout) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(checkout.resolve("target/test-classes").toUri().toURL());
        urls.add(checkout.resolve("target/classes").toUri().toURL());
        for (String jar : Files.readString(checkout.resolve("target/test-cp.txt")).trim().split(":")) {
            urls.add(Path.of(jar).toUri().toURL());
        }
        return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    /** Replaces the benchmark's pods with the same pods read as the watch cache keeps them. */
    private static void compact(ClassLoader loader, Class<?> type, Object bench) throws Exception {
        Field items = type.getDeclaredField("items");
        items.setAccessible(true);
        Object reader = loader.loadClass("io.kapi.machinery.Json").getField("COMPACT_READER").get(null);
        Method readTree = reader.getClass().getMethod("readTree", String.class);
        List<Object> compact = new ArrayList<>();
        for (Object pod : (List<?>) items.get(bench)) {
            compact.add(readTree.invoke(reader, pod.toString()));
        }
        items.set(bench, compact);
    }
}
