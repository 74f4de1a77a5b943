package io.kapi.harness;

import io.kapi.assembly.ApiConfig;
import io.kapi.authz.Decision;
import io.kapi.machinery.features.FeatureGates;
import io.kapi.machinery.resource.ApiEnablement;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Sets the {@link InMemoryApi} fields of a test class: its static ones before the class's {@code @BeforeAll}
 * methods, its instance ones before each test's {@code @BeforeEach} methods; and closes each harness after the
 * matching {@code @AfterAll} or {@code @AfterEach} methods (JUnit runs extensions' before-callbacks before a
 * class's own set-up methods, and their after-callbacks after its tear-down methods). The harnesses made for a
 * context are kept in its store, under its unique id, until then.
 */
final class InMemoryApiExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(InMemoryApiExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        for (Field field : fields(context.getRequiredTestClass(), true)) {
            inject(context, field, null);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Object instance = context.getRequiredTestInstance();
        for (Field field : fields(instance.getClass(), false)) {
            inject(context, field, instance);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        close(context);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close(context);
    }

    /** Closes the harnesses made for this very context (not its parent's), in the order they were made. */
    private static void close(ExtensionContext context) throws Exception {
        OpenHarnesses open = context.getStore(NAMESPACE).remove(context.getUniqueId(), OpenHarnesses.class);
        if (open != null) {
            for (ApiHarness harness : open.harnesses()) {
                harness.close();
            }
        }
    }

    private record OpenHarnesses(List<ApiHarness> harnesses) {
    }

    private static List<Field> fields(Class<?> testClass, boolean statics) {
        return AnnotationSupport.findAnnotatedFields(testClass, InMemoryApi.class,
                f -> Modifier.isStatic(f.getModifiers()) == statics);
    }

    private static void inject(ExtensionContext context, Field field, Object instance) {
        ApiHarness harness = harness(field.getAnnotation(InMemoryApi.class));
        context.getStore(NAMESPACE).getOrComputeIfAbsent(context.getUniqueId(),
                id -> new OpenHarnesses(new ArrayList<>()), OpenHarnesses.class).harnesses().add(harness);
        try {
            field.setAccessible(true);
            field.set(instance, value(field, harness));
        } catch (ReflectiveOperationException e) {
            throw new ExtensionConfigurationException("cannot set @InMemoryApi field " + field, e);
        }
    }

    /** The harness itself, or the field type's wrapper around it. */
    private static Object value(Field field, ApiHarness harness) throws ReflectiveOperationException {
        Class<?> type = field.getType();
        if (type == ApiHarness.class) {
            return harness;
        }
        try {
            var wrap = type.getDeclaredConstructor(ApiHarness.class);
            wrap.setAccessible(true);
            return wrap.newInstance(harness);
        } catch (NoSuchMethodException e) {
            throw new ExtensionConfigurationException("@InMemoryApi field " + field
                    + ": neither an ApiHarness nor a type with a constructor taking one", e);
        } catch (InvocationTargetException e) {
            throw new ExtensionConfigurationException("@InMemoryApi field " + field + ": its wrapper failed", e.getCause());
        }
    }

    private static ApiHarness harness(InMemoryApi api) {
        if (api.authorizationModes().length == 0 && api.enableAdmissionPlugins().length == 0
                && api.featureGates().length == 0 && api.runtimeConfig().length == 0) {
            return new ApiHarness();
        }
        ApiConfig.Builder config = ApiConfig.builder().dataDir(Path.of("target/unused"))
                .admission(new ApiConfig.Admission(List.of(api.enableAdmissionPlugins()), List.of()))
                .features(new ApiConfig.Features(
                        api.featureGates().length == 0 ? FeatureGates.DEFAULT : FeatureGates.parse(List.of(api.featureGates())),
                        api.runtimeConfig().length == 0 ? ApiEnablement.DEFAULT : ApiEnablement.parse(List.of(api.runtimeConfig()))));
        if (api.authorizationModes().length == 0) {
            return new ApiHarness(config.build(), attributes -> Decision.allow());
        }
        return new ApiHarness(config.authorizationModes(List.of(api.authorizationModes())).build());
    }
}
