package io.kapi.testing;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Which fields and parameters the extension fills and with what: {@link KapiServer}, a client type of
 * {@link Clients}, or a {@link KapiNamespace} String. Fields are filled only while still null, so a
 * test may assign its own; what was filled is emptied again when its server, namespace or clients end
 * ({@link #clear}), so that a test instance shared by several tests, or a class run again in the same
 * JVM, is given the new ones instead of keeping closed ones.
 */
final class Injection {

    private Injection() {
    }

    /** Whether a field or parameter of {@code type}, annotated {@code namespace} or not, is the extension's. */
    static boolean injectable(Class<?> type, boolean namespace) {
        if (namespace) {
            return type == String.class;
        }
        return type == KapiServer.class || Clients.supports(type);
    }

    /** The value for {@code type} in {@code scope}. */
    static Object value(Class<?> type, boolean namespace, KapiServer server, String ns, Clients clients) {
        if (namespace) {
            return ns;
        }
        return type == KapiServer.class ? server : clients.get(type);
    }

    /** A field the extension set: {@code target}'s (null: static) {@code field} to {@code value}. */
    record Filled(Field field, Object target, Object value) {
    }

    /** Fills the static fields of {@code testClass} (and its superclasses) from the class's server. */
    static List<Filled> staticFields(Class<?> testClass, ClassScope scope) {
        List<Filled> filled = new ArrayList<>();
        for (Field field : fields(testClass, true)) {
            if (scope == null) {
                throw new ExtensionConfigurationException("static field " + field + " cannot be injected: with "
                        + "@KapiTest(lifecycle = PER_METHOD) each test has its own server; make it an instance field");
            }
            set(field, null, value(field.getType(), isNamespace(field), scope.server(), "default", scope.clients()), filled);
        }
        return filled;
    }

    /** Fills the instance fields of {@code instance} from a test's (or, before the tests, the class's) scope. */
    static List<Filled> instanceFields(Object instance, KapiServer server, String namespace, Clients clients) {
        List<Filled> filled = new ArrayList<>();
        for (Field field : fields(instance.getClass(), false)) {
            set(field, instance, value(field.getType(), isNamespace(field), server, namespace, clients), filled);
        }
        return filled;
    }

    /** Sets again what {@link #clear} emptied, in the fields that are still empty. */
    static void refill(List<Filled> filled) {
        filled.forEach(f -> replace(f, null, f.value()));
    }

    /** Empties the fields that still hold what the extension set (a test's own later assignment stays). */
    static void clear(List<Filled> filled) {
        filled.forEach(f -> replace(f, f.value(), null));
    }

    private static void replace(Filled f, Object expected, Object value) {
        try {
            if (f.field().get(f.target()) == expected) {
                f.field().set(f.target(), value);
            }
        } catch (IllegalAccessException e) {
            throw new ExtensionConfigurationException("cannot set " + f.field(), e);
        }
    }

    private static boolean isNamespace(Field field) {
        return field.isAnnotationPresent(KapiNamespace.class);
    }

    private static List<Field> fields(Class<?> type, boolean statics) {
        List<Field> found = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                boolean isStatic = Modifier.isStatic(field.getModifiers());
                if (isStatic == statics && !Modifier.isFinal(field.getModifiers())
                        && injectable(field.getType(), isNamespace(field))) {
                    found.add(field);
                }
            }
        }
        return found;
    }

    private static void set(Field field, Object target, Object value, List<Filled> filled) {
        try {
            field.setAccessible(true);
            if (field.get(target) == null) {
                field.set(target, value);
                filled.add(new Filled(field, target, value));
            }
        } catch (IllegalAccessException | RuntimeException e) {
            throw new ExtensionConfigurationException("cannot inject " + field, e);
        }
    }
}
