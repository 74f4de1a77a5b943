package io.kapi.bench.authz;

import io.kapi.assembly.ApiConfig;
import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Decision;
import io.kapi.authz.rbac.RbacAuthorizer;
import io.kapi.informers.SharedInformers;
import io.kapi.harness.ApiHarness;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The RBAC authorizer's cost per request with 10,000 RoleBindings in the cluster (plus the bootstrap
 * policy's ClusterRoles and ClusterRoleBindings), written through the whole API in memory and read from
 * the authorizer's watch-fed mirrors, as a server decides. {@code namespaces} spreads the bindings over
 * 1 or 100 namespaces (10,000 or 100 bindings in the request's namespace). Cases: a user allowed by the
 * last binding of the namespace; a user with no binding at all (every binding of the namespace and every
 * ClusterRoleBinding is looked at). SampleTime gives the p50/p99 per request.
 *
 * <p>Run: {@code bench/authz.sh} (JMH options after it, e.g. {@code -p namespaces=100}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RbacAuthorizerBenchmark {

    public static final int BINDINGS = 10_000;

    @Param({"1", "100"})
    public int namespaces;

    private ApiHarness api;
    private RbacAuthorizer rbac;
    private SharedInformers informers;
    private AuthorizationAttributes allowed;
    private AuthorizationAttributes refused;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        api = new ApiHarness(ApiConfig.builder().dataDir(Path.of("target/unused"))
                .authorizationModes(List.of("RBAC")).build());
        api.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", """
                {"metadata":{"name":"reader"},"rules":[{"apiGroups":[""],"resources":["configmaps"],
                 "verbs":["get","list"]}]}""");
        for (int n = 0; n < namespaces; n++) {
            api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"ns-" + n + "\"}}");
        }
        int perNamespace = BINDINGS / namespaces;
        for (int i = 0; i < BINDINGS; i++) {
            String ns = "ns-" + (i / perNamespace);
            api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings", """
                    {"metadata":{"name":"b%d"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                     "name":"reader"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io",
                     "name":"user-%d"}]}""".formatted(i, i));
        }
        informers = new SharedInformers(api.assembly().registry()::store);
        rbac = RbacAuthorizer.start(informers, api.assembly().registry());
        informers.start();
        String ns = "ns-" + (namespaces - 1);
        allowed = request("user-" + (BINDINGS - 1), ns);
        refused = request("nobody", ns);
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (!(rbac.authorize(allowed) instanceof Decision.Allow)) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("the mirrors did not see the last binding");
            }
            Thread.sleep(50);
        }
    }

    private static AuthorizationAttributes request(String user, String namespace) {
        return new AuthorizationAttributes(new UserInfo(user, "", List.of("system:authenticated"), Map.of()),
                Verb.LIST, true, "", "v1", "configmaps", "", namespace, "", "");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        rbac.close();
        informers.close();
        api.close();
    }

    @Benchmark
    public Decision allowedByLastBinding() {
        return rbac.authorize(allowed);
    }

    @Benchmark
    public Decision refusedAfterEveryBinding() {
        return rbac.authorize(refused);
    }
}
