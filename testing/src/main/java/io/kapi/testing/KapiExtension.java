package io.kapi.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link KapiTest}; see there for what it does. Its state lives in the
 * JUnit context of the class ({@link ClassScope}) and of each test ({@link TestScope}), so classes
 * and tests run in parallel do not share anything but what they are meant to (a class's server is
 * shared by its tests and nested classes).
 * <pre>
 *   beforeAll   start the class's server (unless per method, or a nested class of one); static fields, and
 *               the fields of a test instance shared by the class's tests
 *   beforeEach  [start the test's server] [snapshot once] [create the namespace]; instance fields
 *   afterEach   empty the instance fields it filled, close the test's clients, [delete the namespace |
 *               restore the snapshot], [stop its server]
 *   afterAll    empty the static fields it filled, close the class's clients and stop its server
 * </pre>
 */
public final class KapiExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback,
        ParameterResolver {

    private static final ExtensionContext.Namespace STATE = ExtensionContext.Namespace.create(KapiExtension.class);
    private static final String CLASS = "class";
    private static final String TEST = "test";
    private static final String STATIC_FIELDS = "static fields";
    private static final String TEST_FIELDS = "test fields";
    /** A test instance shared by the class's tests (@TestInstance(PER_CLASS)): its fields before and after the tests. */
    private static final String CLASS_INSTANCE_FIELDS = "class instance fields";

    @Override
    public void beforeAll(ExtensionContext context) {
        KapiTest config = config(context);
        ExtensionContext.Store store = context.getStore(STATE);
        boolean ownServer = config.lifecycle() == KapiTest.Lifecycle.PER_CLASS
                && (AnnotationSupport.isAnnotated(context.getRequiredTestClass(), KapiTest.class)
                || store.get(CLASS, ClassScope.class) == null);
        if (ownServer) {
            store.put(CLASS, new ClassScope(start(config)));
        }
        ClassScope scope = classScope(context);
        store.put(STATIC_FIELDS, Injection.staticFields(context.getRequiredTestClass(), scope));
        if (scope != null && context.getTestInstances().isPresent()) {
            // One instance for all the class's tests, made before @BeforeAll: its methods use the class's server.
            List<Injection.Filled> filled = new ArrayList<>();
            for (Object instance : context.getTestInstances().get().getAllInstances()) {
                filled.addAll(Injection.instanceFields(instance, scope.server(), "default", scope.clients()));
            }
            store.put(CLASS_INSTANCE_FIELDS, filled);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(STATE);
        clearFields(store, STATIC_FIELDS);
        clearFields(store, CLASS_INSTANCE_FIELDS);
        ClassScope scope = store.remove(CLASS, ClassScope.class);
        if (scope != null) {
            scope.close();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        KapiTest config = config(context);
        ClassScope cls = classScope(context);
        boolean perMethod = cls == null;
        KapiServer server = perMethod ? start(config) : cls.server();
        try {
            if (config.restoreAfterEach()) {
                if (perMethod) {
                    throw new ExtensionConfigurationException("restoreAfterEach needs a server per class: "
                            + "with lifecycle = PER_METHOD every test starts from a fresh server anyway");
                }
                cls.snapshotOnce();
            }
            String namespace = "default";
            if (config.namespacePerTest()) {
                namespace = namespaceName(context);
                server.createNamespace(namespace);
            }
            boolean ownClients = perMethod || config.namespacePerTest();
            TestScope test = new TestScope(server, perMethod, namespace, config.namespacePerTest(),
                    ownClients ? new Clients(server, namespace) : cls.clients(), ownClients);
            context.getStore(STATE).put(TEST, test);
            List<Injection.Filled> filled = new ArrayList<>();
            context.getStore(STATE).put(TEST_FIELDS, filled);
            classInstanceFields(context).ifPresent(Injection::clear);
            for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
                filled.addAll(Injection.instanceFields(instance, test.server(), test.namespace(), test.clients()));
            }
        } catch (RuntimeException e) {
            if (perMethod) {
                server.close();
            }
            throw e;
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        clearFields(context.getStore(STATE), TEST_FIELDS);
        classInstanceFields(context).ifPresent(Injection::refill);
        TestScope test = context.getStore(STATE).remove(TEST, TestScope.class);
        if (test == null) {
            return;
        }
        boolean restore = config(context).restoreAfterEach() && !test.ownServer();
        test.close(restore);
        if (restore) {
            classScope(context).restore();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return Injection.injectable(parameter.getParameter().getType(), parameter.isAnnotated(KapiNamespace.class));
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        boolean namespace = parameter.isAnnotated(KapiNamespace.class);
        TestScope test = context.getTestMethod().isPresent() ? context.getStore(STATE).get(TEST, TestScope.class) : null;
        if (test != null) {
            return Injection.value(type, namespace, test.server(), test.namespace(), test.clients());
        }
        ClassScope cls = classScope(context);
        if (cls == null) {
            throw new ParameterResolutionException("no Kapi server yet for " + parameter.getParameter()
                    + ": with lifecycle = PER_METHOD the server exists from each test's @BeforeEach on");
        }
        return Injection.value(type, namespace, cls.server(), "default", cls.clients());
    }

    /** The fields of a test instance shared by the class's tests, as filled before them; empty otherwise. */
    @SuppressWarnings("unchecked")
    private static Optional<List<Injection.Filled>> classInstanceFields(ExtensionContext context) {
        return Optional.ofNullable(context.getStore(STATE).get(CLASS_INSTANCE_FIELDS, List.class));
    }

    /** Empties the fields the extension filled under {@code key} at this level, once their scope ends. */
    @SuppressWarnings("unchecked")
    private static void clearFields(ExtensionContext.Store store, String key) {
        List<Injection.Filled> filled = store.remove(key, List.class);
        if (filled != null) {
            Injection.clear(filled);
        }
    }

    /** The class's server scope: its own, or (nested classes) the enclosing class's; null per method. */
    private static ClassScope classScope(ExtensionContext context) {
        return context.getStore(STATE).get(CLASS, ClassScope.class);
    }

    /** The {@code @KapiTest} of the test class, or of the nearest enclosing class for a nested one. */
    private static KapiTest config(ExtensionContext context) {
        for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
            Optional<KapiTest> found = AnnotationSupport.findAnnotation(c, KapiTest.class);
            if (found.isPresent()) {
                return found.get();
            }
        }
        throw new ExtensionConfigurationException("KapiExtension needs @KapiTest on the test class");
    }

    private static KapiServer start(KapiTest config) {
        KapiServer.Builder builder = KapiServer.builder();
        if (config.controllers().length > 0) {
            builder.controllers(config.controllers());
        }
        if (config.scheduler()) {
            builder.scheduler(true);
        }
        return builder
                .storage(config.storage())
                .authentication(config.authentication())
                .authorizationModes(config.authorizationModes())
                .enableAdmissionPlugins(config.enableAdmissionPlugins())
                .disableAdmissionPlugins(config.disableAdmissionPlugins())
                .standaloneControllers(config.standaloneControllers())
                .simulatedNodes(config.simulatedNodes())
                .crds(config.crds())
                .start();
    }

    /** A fresh DNS label from the test method's name, e.g. {@code createsdeployment-k3x9q}. */
    static String namespaceName(ExtensionContext context) {
        String base = context.getTestMethod().map(m -> m.getName()).orElse("test").toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (base.length() > 40) {
            base = base.substring(0, 40).replaceAll("-+$", "");
        }
        StringBuilder suffix = new StringBuilder();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 5; i++) {
            suffix.append("bcdfghjklmnpqrstvwxz2456789".charAt(random.nextInt(27)));
        }
        return (base.isEmpty() ? "test" : base) + "-" + suffix;
    }
}
