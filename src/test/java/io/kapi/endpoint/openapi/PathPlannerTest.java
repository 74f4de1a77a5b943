package io.kapi.endpoint.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.machinery.schema.Schemas;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PathPlannerTest {

    private static PathPlanner planner;

    @BeforeAll
    static void setUp() {
        ResourceTable table = ResourceTable.builtin();
        planner = new PathPlanner(table, new Definitions(Schemas.load(), table.groupVersions()));
    }

    private static Map<String, Operation> byId(GroupVersion gv) {
        Map<String, Operation> ops = new HashMap<>();
        for (Operation.PathItem item : planner.plan(gv)) {
            item.operations().forEach(op -> ops.put(op.operationId(), op));
        }
        return ops;
    }

    @Test
    @DisplayName("tags and operation id prefixes are kube-apiserver's")
    void tags() {
        assertEquals("core_v1", PathPlanner.tag(new GroupVersion("", "v1")));
        assertEquals("rbacAuthorization_v1", PathPlanner.tag(new GroupVersion("rbac.authorization.k8s.io", "v1")));
        assertEquals("flowcontrolApiserver_v1", PathPlanner.tag(new GroupVersion("flowcontrol.apiserver.k8s.io", "v1")));
        assertEquals("AutoscalingV2", PathPlanner.operationPrefix(new GroupVersion("autoscaling", "v2")));
        assertEquals("RbacAuthorizationV1", PathPlanner.operationPrefix(new GroupVersion("rbac.authorization.k8s.io", "v1")));
    }

    @Test
    @DisplayName("core/v1 plans the operations kube-apiserver registers for pods, namespaces and service accounts")
    void coreOperations() {
        Map<String, Operation> ops = byId(new GroupVersion("", "v1"));
        for (String id : List.of("listCoreV1NamespacedPod", "createCoreV1NamespacedPod", "readCoreV1NamespacedPod",
                "replaceCoreV1NamespacedPod", "patchCoreV1NamespacedPod", "deleteCoreV1NamespacedPod",
                "deleteCoreV1CollectionNamespacedPod", "listCoreV1PodForAllNamespaces", "watchCoreV1NamespacedPod",
                "watchCoreV1NamespacedPodList", "watchCoreV1PodListForAllNamespaces", "readCoreV1NamespacedPodStatus",
                "readCoreV1NamespacedPodLog", "connectCoreV1PostNamespacedPodExec",
                "connectCoreV1GetNamespacedPodProxyWithPath", "createCoreV1NamespacedPodEviction",
                "createCoreV1NamespacedPodBinding", "createCoreV1NamespacedBinding", "replaceCoreV1NamespaceFinalize",
                "createCoreV1NamespacedServiceAccountToken", "listCoreV1Namespace", "getCoreV1APIResources")) {
            assertTrue(ops.containsKey(id), id);
        }
        Operation eviction = ops.get("createCoreV1NamespacedPodEviction");
        assertEquals("policy", eviction.gvk().group());
        assertEquals("io.k8s.api.policy.v1.Eviction", eviction.body());
        assertEquals("watchlist", ops.get("watchCoreV1NamespacedPodList").action());
        assertEquals("connect", ops.get("connectCoreV1PostNamespacedPodExec").action());
        assertEquals("io.k8s.api.core.v1.PodList", ops.get("listCoreV1NamespacedPod").responses().get("200"));
        assertTrue(ops.get("patchCoreV1NamespacedPod").consumes().contains("application/strategic-merge-patch+json"));
    }

    @Test
    @DisplayName("create-only resources get a collection POST and nothing else")
    void reviews() {
        Map<String, Operation> ops = byId(new GroupVersion("authorization.k8s.io", "v1"));
        assertTrue(ops.containsKey("createAuthorizationV1SelfSubjectAccessReview"));
        assertTrue(ops.containsKey("createAuthorizationV1NamespacedLocalSubjectAccessReview"));
        assertEquals(5, ops.size(), ops.keySet().toString());
    }
}
