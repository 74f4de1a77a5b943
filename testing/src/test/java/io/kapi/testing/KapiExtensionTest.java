package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.Client;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The extension, driven through the JUnit engine: sample test classes (nested here, so that they run
 * only when these tests run them) record what they were given; the tests check it and what is left
 * after them.
 */
@DisplayName("@KapiTest")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KapiExtensionTest {

    /** What the samples saw, by "Sample.what". */
    static final Map<String, Object> SEEN = new ConcurrentHashMap<>();

    static EngineExecutionResults run(Map<String, String> configuration, Class<?>... classes) {
        ClassSelector[] selectors = java.util.Arrays.stream(classes).map(c -> selectClass(c)).toArray(ClassSelector[]::new);
        return EngineTestKit.engine("junit-jupiter").configurationParameters(configuration).selectors(selectors).execute();
    }

    static EngineExecutionResults run(Class<?>... classes) {
        return run(Map.of(), classes);
    }

    /** Fails with every failure's stack when anything in the run failed. */
    static void assertAllPassed(EngineExecutionResults results, int tests) {
        List<Throwable> failures = results.allEvents().failed().stream()
                .map(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow())
                .flatMap(r -> r.getThrowable().stream()).toList();
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(failures.size() + " failed: " + failures.getFirst());
            failures.forEach(error::addSuppressed);
            throw error;
        }
        assertEquals(tests, results.testEvents().succeeded().count(), "tests passed");
    }

    static ConfigMap configMap(String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("v", value).build();
    }

    @KapiTest
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class PerClassSample {
        static KapiServer staticServer;
        KapiServer server;
        KubernetesClient client;
        NamespacedKubernetesClient namespaced;
        Client generic;
        ApiClient apiClient;

        @BeforeAll
        static void before(KapiServer fromParameter, KubernetesClient clientParameter) {
            SEEN.put("PerClass.beforeAll.same", fromParameter == staticServer);
            SEEN.put("PerClass.beforeAll.ns", clientParameter.namespaces().withName("kube-system").get() != null);
        }

        @Test
        @Order(1)
        void first(KubernetesClient parameter) throws Exception {
            SEEN.put("PerClass.url1", server.url());
            SEEN.put("PerClass.dir", server.directory());
            SEEN.put("PerClass.client1", client);
            SEEN.put("PerClass.parameterIsField", parameter == client);
            client.configMaps().resource(configMap("shared", "1")).create();
            SEEN.put("PerClass.javaClient", new CoreV1Api(apiClient).listNamespace().execute().getItems().size());
        }

        @Test
        @Order(2)
        void second() {
            SEEN.put("PerClass.url2", server.url());
            SEEN.put("PerClass.static", staticServer.url());
            SEEN.put("PerClass.client2", client);
            SEEN.put("PerClass.otherFabric8Types", namespaced == client && generic == client);
            SEEN.put("PerClass.sharedVisible", client.configMaps().withName("shared").get() != null);
        }
    }

    @Test
    @DisplayName("one server per class: the same server and clients in every test, fields and parameters, "
            + "fabric8 and the Java client both working; stopped and removed after the class")
    void perClass() {
        assertAllPassed(run(PerClassSample.class), 2);
        assertEquals(SEEN.get("PerClass.url1"), SEEN.get("PerClass.url2"));
        assertEquals(SEEN.get("PerClass.url1"), SEEN.get("PerClass.static"));
        assertSame(SEEN.get("PerClass.client1"), SEEN.get("PerClass.client2"));
        assertEquals(true, SEEN.get("PerClass.otherFabric8Types"), "NamespacedKubernetesClient and Client fields get the same client");
        assertEquals(true, SEEN.get("PerClass.beforeAll.same"));
        assertEquals(true, SEEN.get("PerClass.beforeAll.ns"));
        assertEquals(true, SEEN.get("PerClass.parameterIsField"));
        assertEquals(true, SEEN.get("PerClass.sharedVisible"));
        assertTrue((Integer) SEEN.get("PerClass.javaClient") >= 4, "the Java client lists the system namespaces");
        Cleanup.assertStopped((String) SEEN.get("PerClass.url1"), (Path) SEEN.get("PerClass.dir"));
        assertNull(PerClassSample.staticServer, "the static field is emptied with its server stopped");

        // The same class again in this JVM (a rerun, another launcher): its static field gets the new server.
        String firstUrl = (String) SEEN.get("PerClass.url1");
        assertAllPassed(run(PerClassSample.class), 2);
        assertNotEquals(firstUrl, SEEN.get("PerClass.static"));
        assertEquals(SEEN.get("PerClass.url1"), SEEN.get("PerClass.static"));
        assertEquals(true, SEEN.get("PerClass.beforeAll.same"));
    }

    @KapiTest(lifecycle = KapiTest.Lifecycle.PER_METHOD)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class PerMethodSample {
        KapiServer server;
        KubernetesClient client;

        @Test
        @Order(1)
        void first() {
            SEEN.put("PerMethod.url1", server.url());
            SEEN.put("PerMethod.dir1", server.directory());
            client.configMaps().resource(configMap("mine", "1")).create();
        }

        @Test
        @Order(2)
        void second() {
            SEEN.put("PerMethod.url2", server.url());
            SEEN.put("PerMethod.fresh", client.configMaps().withName("mine").get() == null);
            SEEN.put("PerMethod.firstGone", !Files.exists((Path) SEEN.get("PerMethod.dir1")));
        }
    }

    @Test
    @DisplayName("one server per method: a fresh server for each test, the previous one already stopped")
    void perMethod() {
        assertAllPassed(run(PerMethodSample.class), 2);
        assertNotEquals(SEEN.get("PerMethod.url1"), SEEN.get("PerMethod.url2"));
        assertEquals(true, SEEN.get("PerMethod.fresh"));
        assertEquals(true, SEEN.get("PerMethod.firstGone"));
        Cleanup.assertStopped((String) SEEN.get("PerMethod.url1"), (Path) SEEN.get("PerMethod.dir1"));
    }

    @KapiTest(namespacePerTest = true)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class NamespaceSample {
        KubernetesClient client;
        @KapiNamespace
        String namespace;

        @Test
        @Order(1)
        void first() {
            SEEN.put("Namespace.ns1", namespace);
            SEEN.put("Namespace.client1", client.getNamespace());
            ConfigMap created = client.configMaps().resource(configMap("here", "1")).create();
            SEEN.put("Namespace.createdIn", created.getMetadata().getNamespace());
        }

        @Test
        @Order(2)
        void second(@KapiNamespace String parameter) {
            SEEN.put("Namespace.ns2", namespace);
            SEEN.put("Namespace.parameter", parameter);
            Namespace previous = client.namespaces().withName((String) SEEN.get("Namespace.ns1")).get();
            SEEN.put("Namespace.previousDeleted", previous == null || previous.getMetadata().getDeletionTimestamp() != null);
            SEEN.put("Namespace.empty", client.configMaps().list().getItems().stream()
                    .noneMatch(c -> c.getMetadata().getName().equals("here")));
        }
    }

    @Test
    @DisplayName("a namespace per test: created before, the clients' default namespace, deleted after")
    void namespacePerTest() {
        assertAllPassed(run(NamespaceSample.class), 2);
        String ns1 = (String) SEEN.get("Namespace.ns1");
        assertTrue(ns1.matches("first-[a-z0-9]{5}"), ns1);
        assertEquals(ns1, SEEN.get("Namespace.client1"));
        assertEquals(ns1, SEEN.get("Namespace.createdIn"));
        assertNotEquals(ns1, SEEN.get("Namespace.ns2"));
        assertEquals(SEEN.get("Namespace.ns2"), SEEN.get("Namespace.parameter"));
        assertEquals(true, SEEN.get("Namespace.previousDeleted"));
        assertEquals(true, SEEN.get("Namespace.empty"));
    }

    @KapiTest(namespacePerTest = true)
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class SharedInstanceNamespaceSample {
        KubernetesClient client;
        @KapiNamespace
        String namespace;

        @Test
        @Order(1)
        void first() {
            SEEN.put("SharedInstance.ns1", namespace);
            client.configMaps().resource(configMap("here", "1")).create();
        }

        @Test
        @Order(2)
        void second() {
            SEEN.put("SharedInstance.ns2", namespace);
            SEEN.put("SharedInstance.client2", client.getNamespace());
            SEEN.put("SharedInstance.createdIn", client.configMaps().resource(configMap("again", "2")).create()
                    .getMetadata().getNamespace());
        }
    }

    @KapiTest(namespacePerTest = true)
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class SharedInstanceSetUpSample {
        KapiServer server;
        KubernetesClient client;
        @KapiNamespace
        String namespace;

        @BeforeAll
        void setUp() {
            SEEN.put("SharedInstanceSetUp.beforeAllNamespace", namespace);
            client.configMaps().inNamespace("kube-public").resource(configMap("fixture", "1")).create();
        }

        @Test
        @Order(1)
        void first() {
            SEEN.put("SharedInstanceSetUp.ns1", namespace);
            SEEN.put("SharedInstanceSetUp.client1", client.getNamespace());
            SEEN.put("SharedInstanceSetUp.fixture", client.configMaps().inNamespace("kube-public").withName("fixture").get() != null);
        }

        @AfterAll
        void tearDown() {
            SEEN.put("SharedInstanceSetUp.afterAllNamespace", namespace);
            SEEN.put("SharedInstanceSetUp.afterAllClient", client.getNamespace());
            client.configMaps().inNamespace("kube-public").withName("fixture").delete();
        }
    }

    @KapiTest(lifecycle = KapiTest.Lifecycle.PER_METHOD)
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class SharedInstancePerMethodSample {
        KapiServer server;
        KubernetesClient client;

        @Test
        @Order(1)
        void first() {
            SEEN.put("SharedInstancePerMethod.url1", server.url());
        }

        @Test
        @Order(2)
        void second() {
            SEEN.put("SharedInstancePerMethod.url2", server.url());
            SEEN.put("SharedInstancePerMethod.clientUrl2", client.getMasterUrl().toString());
            SEEN.put("SharedInstancePerMethod.listed", client.namespaces().list().getItems().size());
        }
    }

    @Test
    @DisplayName("a test instance shared by its tests (@TestInstance(PER_CLASS)) gets each test's server, namespace and clients")
    void sharedTestInstance() {
        assertAllPassed(run(SharedInstanceNamespaceSample.class, SharedInstancePerMethodSample.class,
                SharedInstanceSetUpSample.class), 5);
        // Its @BeforeAll and @AfterAll methods see the class's server, client and namespace; each test its own.
        assertEquals("default", SEEN.get("SharedInstanceSetUp.beforeAllNamespace"));
        assertNotEquals("default", SEEN.get("SharedInstanceSetUp.ns1"));
        assertEquals(SEEN.get("SharedInstanceSetUp.ns1"), SEEN.get("SharedInstanceSetUp.client1"));
        assertEquals(true, SEEN.get("SharedInstanceSetUp.fixture"));
        assertEquals("default", SEEN.get("SharedInstanceSetUp.afterAllNamespace"));
        assertEquals("default", SEEN.get("SharedInstanceSetUp.afterAllClient"));
        String ns2 = (String) SEEN.get("SharedInstance.ns2");
        assertNotEquals(SEEN.get("SharedInstance.ns1"), ns2);
        assertEquals(ns2, SEEN.get("SharedInstance.client2"));
        assertEquals(ns2, SEEN.get("SharedInstance.createdIn"));
        assertNotEquals(SEEN.get("SharedInstancePerMethod.url1"), SEEN.get("SharedInstancePerMethod.url2"));
        assertTrue(SEEN.get("SharedInstancePerMethod.clientUrl2").toString()
                .startsWith(SEEN.get("SharedInstancePerMethod.url2").toString()), SEEN.toString());
        assertTrue((Integer) SEEN.get("SharedInstancePerMethod.listed") >= 4, "the system namespaces are listed");
    }

    @KapiTest(restoreAfterEach = true)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class RestoreSample {
        static KubernetesClient client;

        @BeforeAll
        static void fixtures() {
            client.configMaps().resource(configMap("fixture", "original")).create();
        }

        private static String fixture() {
            ConfigMap c = client.configMaps().withName("fixture").get();
            return c == null ? "absent" : c.getData().get("v");
        }

        @Test
        @Order(1)
        void change() {
            SEEN.put("Restore.1", fixture());
            client.configMaps().withName("fixture").edit(c -> {
                c.getData().put("v", "changed");
                return c;
            });
            client.configMaps().resource(configMap("extra", "x")).create();
        }

        @Test
        @Order(2)
        void delete() {
            SEEN.put("Restore.2", fixture() + "," + (client.configMaps().withName("extra").get() == null));
            client.configMaps().withName("fixture").delete();
        }

        @Test
        @Order(3)
        void again() {
            SEEN.put("Restore.3", fixture());
        }
    }

    @Test
    @DisplayName("restore after each: every test sees the objects @BeforeAll made, as it made them")
    void restoreAfterEach() {
        assertAllPassed(run(RestoreSample.class), 3);
        assertEquals("original", SEEN.get("Restore.1"));
        assertEquals("original,true", SEEN.get("Restore.2"));
        assertEquals("original", SEEN.get("Restore.3"));
    }

    /** Three classes that only pass if they all have their servers up at the same time. */
    static final CountDownLatch ALL_UP = new CountDownLatch(3);

    abstract static class ParallelSample {
        KubernetesClient client;
        KapiServer server;

        @Test
        void ownStore() throws InterruptedException {
            String me = getClass().getSimpleName();
            SEEN.put("Parallel." + me, server.url());
            client.configMaps().resource(configMap("owner", me)).create();
            ALL_UP.countDown();
            assertTrue(ALL_UP.await(3, TimeUnit.MINUTES), "the three classes did not run at the same time");
            assertEquals(me, client.configMaps().withName("owner").get().getData().get("v"));
        }
    }

    @KapiTest
    static class ParallelA extends ParallelSample {
    }

    @KapiTest
    static class ParallelB extends ParallelSample {
    }

    @KapiTest
    static class ParallelC extends ParallelSample {
    }

    @Test
    @DisplayName("classes run in parallel: each its own server, port and store, all up at once")
    void parallelClasses() {
        EngineExecutionResults results = run(Map.of(
                "junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
                "junit.jupiter.execution.parallel.config.strategy", "fixed",
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "3"),
                ParallelA.class, ParallelB.class, ParallelC.class);
        assertAllPassed(results, 3);
        assertEquals(3, java.util.Set.of(SEEN.get("Parallel.ParallelA"), SEEN.get("Parallel.ParallelB"),
                SEEN.get("Parallel.ParallelC")).size());
    }

    @KapiTest(namespacePerTest = true)
    static class OuterSample {
        static KapiServer outer;

        @Nested
        class Inner {
            KapiServer server;
            @KapiNamespace
            String namespace;

            @Test
            void sharesTheOuterServer() {
                SEEN.put("Nested.same", server == outer);
                SEEN.put("Nested.ns", namespace);
            }
        }
    }

    @Test
    @DisplayName("a nested class shares its enclosing class's server and settings")
    void nested() {
        assertAllPassed(run(OuterSample.class), 1);
        assertEquals(true, SEEN.get("Nested.same"));
        assertNotEquals("default", SEEN.get("Nested.ns"));
    }

    @KapiTest(crds = "classpath:crds/widgets.yaml")
    static class CrdSample {
        KubernetesClient client;

        @Test
        void servesTheCrd() {
            var widget = new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                    .withApiVersion("example.com/v1").withKind("Widget").withNewMetadata().withName("w").endMetadata()
                    .withAdditionalProperties(Map.of("spec", Map.of("size", 2))).build();
            client.genericKubernetesResources("example.com/v1", "Widget").inNamespace("default").resource(widget).create();
            SEEN.put("Crd.widgets", client.genericKubernetesResources("example.com/v1", "Widget").inNamespace("default")
                    .list().getItems().size());
        }
    }

    @KapiTest(authorizationModes = "Bogus")
    static class BadModeSample {
        @Test
        void never() {
        }
    }

    @Test
    @DisplayName("the class's CRDs are served to its tests; a bad option fails the class with kube-apiserver's words")
    void options() {
        assertAllPassed(run(CrdSample.class), 1);
        assertEquals(1, SEEN.get("Crd.widgets"));
        assertClassFails(run(BadModeSample.class), "authorization-mode \"Bogus\" is not a valid mode");
    }

    private static void assertClassFails(EngineExecutionResults results, String message) {
        Event failed = results.containerEvents().failed().stream().findFirst().orElse(null);
        assertNotNull(failed, "the class should fail");
        Throwable cause = failed.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
        assertTrue(cause.getMessage().contains(message), cause.toString());
        assertEquals(0, results.testEvents().started().count());
    }

    @Test
    @DisplayName("nothing is left after a class: no thread, no listening port, no temporary directory")
    void cleanup() {
        Cleanup.Before before = Cleanup.before();
        assertAllPassed(run(PerClassSample.class), 2);
        before.assertNothingLeft((String) SEEN.get("PerClass.url1"));
    }
}
