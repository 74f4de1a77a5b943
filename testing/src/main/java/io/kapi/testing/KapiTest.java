package io.kapi.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real in-process Kapi server ({@link KapiServer}): one
 * server for the whole class by default, or a fresh one for every test method.
 *
 * <pre>{@code
 * @KapiTest
 * class DeploymentTest {
 *     KubernetesClient client;             // injected (fabric8, when on the test class path)
 *
 *     @Test
 *     void creates() {
 *         client.apps().deployments().resource(deployment).create();
 *     }
 * }
 * }</pre>
 *
 * <p>Injected, into fields (static ones when the server is per class; only fields still null) and
 * into parameters of test, lifecycle and constructor methods:
 * <ul>
 *   <li>{@link KapiServer}: the server (URL, kubeconfig, CA, snapshot and restore);</li>
 *   <li>fabric8's {@code io.fabric8.kubernetes.client.KubernetesClient} (or a field or parameter declared as its
 *       {@code NamespacedKubernetesClient} or {@code Client}: the same client), if fabric8 is on the class path,
 *       as the admin user, its default namespace the test's namespace;</li>
 *   <li>the official client's {@code io.kubernetes.client.openapi.ApiClient}, if it is on the class path;</li>
 *   <li>a {@code String} annotated {@link KapiNamespace}: the test's namespace.</li>
 * </ul>
 * A test instance shared by the class's tests ({@code @TestInstance(PER_CLASS)}) has its fields filled for
 * its {@code @BeforeAll} and {@code @AfterAll} methods too, with the class's server and clients; during each
 * test they hold that test's. Fields are emptied again when what they hold ends.
 * The extension owns what it injects: it closes the clients and stops the server after the class
 * (or method), leaving no thread, port or file behind. Classes run in parallel each get their own
 * server (own port, own store).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KapiExtension.class)
public @interface KapiTest {

    /** One server for the class (default), shared by its tests and nested classes, or one per test method. */
    Lifecycle lifecycle() default Lifecycle.PER_CLASS;

    /**
     * Whether each test gets a namespace of its own, created before it and deleted after it; it is the
     * default namespace of the clients injected for that test. Off, tests use {@code default}.
     */
    boolean namespacePerTest() default false;

    /**
     * Whether the state the class's {@code @BeforeAll} methods left is brought back after every test
     * ({@link KapiServer#restore}), so each test starts from the same objects. Needs memory storage and
     * tests of the class that do not run concurrently with each other.
     */
    boolean restoreAfterEach() default false;

    /** Where the server keeps its objects. */
    StorageBackend storage() default StorageBackend.MEMORY;

    /** See {@link KapiServer.Builder#authentication}. */
    boolean authentication() default true;

    /** See {@link KapiServer.Builder#authorizationModes}. */
    String[] authorizationModes() default {"AlwaysAllow"};

    /** See {@link KapiServer.Builder#enableAdmissionPlugins}. */
    String[] enableAdmissionPlugins() default {};

    /** See {@link KapiServer.Builder#disableAdmissionPlugins}. */
    String[] disableAdmissionPlugins() default {};

    /** See {@link KapiServer.Builder#standaloneControllers}. */
    boolean standaloneControllers() default true;

    /** See {@link KapiServer.Builder#controllers}; empty (the default) is bin/kapi's default set. */
    String[] controllers() default {};

    /** See {@link KapiServer.Builder#simulatedNodes}; 0 (the default) registers none. */
    int simulatedNodes() default 0;

    /** True: see {@link KapiServer.Builder#scheduler}; false (the default) is bin/kapi's default. */
    boolean scheduler() default false;

    /** CustomResourceDefinitions to install before the tests run: files or {@code classpath:} resources, see {@link KapiServer.Builder#crds}. */
    String[] crds() default {};

    /** How long a server is kept. */
    enum Lifecycle {
        /** One server for the test class. */
        PER_CLASS,
        /** A fresh server for every test method. */
        PER_METHOD
    }
}
