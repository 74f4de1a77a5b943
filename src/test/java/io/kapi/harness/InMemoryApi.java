package io.kapi.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole API in memory ({@link ApiHarness}) for a test class, made and closed by JUnit. Annotate a field
 * of type {@code ApiHarness}, or of a test helper that wraps one (a type with a constructor taking an
 * {@code ApiHarness}):
 *
 * <pre>{@code
 * @InMemoryApi
 * static ApiHarness api;                  // one API for the class: before its @BeforeAll methods, closed after its @AfterAll
 *
 * @InMemoryApi
 * ApiHarness api;                         // a fresh API for each test: before its @BeforeEach methods, closed after its @AfterEach
 *
 * @InMemoryApi(authorizationModes = {"Node", "RBAC"}, enableAdmissionPlugins = "NodeRestriction")
 * static ApiHarness api;                  // the server's flags, by kube-apiserver's names
 * }</pre>
 *
 * Without attributes the API is {@code new ApiHarness()}: every request allowed, kube-apiserver's default
 * admission plugins, the default feature gates and API versions. The set-up a class still needs (objects
 * its tests share) stays in its own {@code @BeforeAll} or {@code @BeforeEach} methods, which see the field set.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(InMemoryApiExtension.class)
public @interface InMemoryApi {

    /** {@code --authorization-mode}, in order; none: every request allowed. */
    String[] authorizationModes() default {};

    /** {@code --enable-admission-plugins}: added to kube-apiserver's default set. */
    String[] enableAdmissionPlugins() default {};

    /** {@code --feature-gates}, one {@code Name=true|false} each. */
    String[] featureGates() default {};

    /** {@code --runtime-config}, one {@code group/version=true|false} each. */
    String[] runtimeConfig() default {};
}
