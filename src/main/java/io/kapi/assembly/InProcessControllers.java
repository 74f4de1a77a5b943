package io.kapi.assembly;

import io.kapi.admission.policy.PolicyTypeChecker;
import io.kapi.apis.subresources.ServiceAccountKeys;
import io.kapi.client.LocalClient;
import io.kapi.client.Loopback;
import io.kapi.controllers.ControllerSelection;
import io.kapi.controllers.GarbageCollector;
import io.kapi.controllers.NamespaceController;
import io.kapi.controllers.PolicyStatusController;
import io.kapi.controllers.QuotaStatusController;
import io.kapi.controllers.RootCaPublisher;
import io.kapi.controllers.ServiceAccountController;
import io.kapi.controllers.StorageProtectionController;
import io.kapi.controllers.TokensController;
import io.kapi.health.PostStartHook;
import io.kapi.informers.SharedInformers;
import io.kapi.registry.Registry;
import io.kapi.user.SystemUsers;
import io.kapi.workloads.Workloads;
import java.util.ArrayList;
import java.util.List;

/**
 * The controllers {@code --controllers} selects, each made with its kube identity (the service account
 * kube-controller-manager gives it with {@code --use-service-account-credentials}) and started by its
 * post-start hook; closed with the API.
 */
record InProcessControllers(List<PostStartHook> hooks, List<AutoCloseable> resources) {

    static InProcessControllers create(ApiConfig config, Loopback loopback, Registry registry,
                                       SharedInformers informers, ServiceAccountKeys keys, PolicyTypeChecker policies) {
        ControllerSelection on = config.effectiveControllers();
        List<Object> made = new ArrayList<>();
        if (on.enabled("namespace-controller")) {
            made.add(new NamespaceController(as(loopback, "namespace-controller"), registry, informers));
        }
        if (on.enabled("serviceaccount-controller")) {
            made.add(new ServiceAccountController(as(loopback, "service-account-controller"), informers));
        }
        if (on.enabled("garbage-collector-controller")) {
            made.add(new GarbageCollector(as(loopback, "generic-garbage-collector"), registry, informers));
        }
        String clusterCa = ClusterCa.read(config.dataDir());
        if (on.enabled("serviceaccount-token-controller")) {
            made.add(new TokensController(loopback.as(SystemUsers.CONTROLLER_MANAGER, ApiAssembly.CONTROLLER_AGENT),
                    registry, keys, clusterCa, informers));
        }
        if (clusterCa != null && on.enabled("root-ca-certificate-publisher-controller")) {
            made.add(new RootCaPublisher(as(loopback, "root-ca-cert-publisher"), clusterCa, informers));
        }
        if (on.anyEnabled("persistentvolumeclaim-protection-controller", "persistentvolume-protection-controller")) {
            made.add(new StorageProtectionController(as(loopback, "pvc-protection-controller"),
                    as(loopback, "pv-protection-controller"), registry, informers));
        }
        if (on.enabled("resourcequota-controller")) {
            made.add(new QuotaStatusController(as(loopback, "resourcequota-controller"), registry, informers));
        }
        if (on.enabled("validatingadmissionpolicy-status-controller")) {
            made.add(new PolicyStatusController(as(loopback, "validatingadmissionpolicy-status-controller"),
                    registry, policies, informers));
        }
        made.addAll(Workloads.create(on::enabled, account -> as(loopback, account), informers,
                java.time.Clock.systemUTC()));
        if (config.standalone()) {
            made.add(new io.kapi.simulation.NodeSimulation(config.simulation(),
                    user -> loopback.as(user, io.kapi.simulation.NodeSimulation.AGENT), as(loopback, "node-controller"),
                    informers,
                    java.time.Clock.systemUTC()));
        }
        if (config.schedulerOn()) {
            made.add(new io.kapi.scheduler.Scheduler(loopback.as(SystemUsers.KUBE_SCHEDULER, ApiAssembly.SCHEDULER_AGENT),
                    informers, java.time.Clock.systemUTC()));
        }
        List<PostStartHook> hooks = new ArrayList<>();
        List<AutoCloseable> resources = new ArrayList<>();
        for (Object c : made) {
            hooks.add((PostStartHook) c);
            resources.add((AutoCloseable) c);
        }
        return new InProcessControllers(List.copyOf(hooks), List.copyOf(resources));
    }

    private static LocalClient as(Loopback loopback, String serviceAccount) {
        return loopback.as(SystemUsers.controller(serviceAccount), ApiAssembly.CONTROLLER_AGENT);
    }
}
