package io.kapi.controllers;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which in-process controllers run: kube-controller-manager's {@code --controllers}, with its names and
 * its rules. Each selector is {@code *} (every controller kube turns on by default), {@code foo} (on) or
 * {@code -foo} (off); the first selector naming a controller decides, else {@code *} turns it on unless kube
 * has it off by default, else it is off ({@code IsControllerEnabled}). Names are kube's canonical ones
 * ({@code replicaset-controller}) or their old aliases ({@code replicaset}); a name kube does not know is an
 * error, worded as kube's.
 *
 * <p>Kapi's default ({@link #DEFAULT}, {@code bin/kapi} without the flag) is the set it ran before the
 * workload controllers existed, so an existing user's server does not start creating Pods; {@code *} adds
 * the workload controllers (deployment, replicaset, replicationcontroller, endpoints, endpointslice). A
 * controller kube has and Kapi does not is accepted and does nothing.
 *
 * <p>With a real kube-controller-manager beside Kapi, turn the controllers it runs off here (or all of them,
 * {@code --standalone=false}): Kapi's controllers take no part in kube's leader election (Lease
 * {@code kube-system/kube-controller-manager}), so the two would both act.
 */
public record ControllerSelection(List<String> selectors) {

    /** kube-controller-manager 1.34's controllers ({@code cmd/kube-controller-manager/names}). */
    public static final Set<String> KNOWN = Set.of("serviceaccount-token-controller", "endpoints-controller",
            "endpointslice-controller", "endpointslice-mirroring-controller", "replicationcontroller-controller",
            "pod-garbage-collector-controller", "resourcequota-controller", "namespace-controller",
            "serviceaccount-controller", "garbage-collector-controller", "daemonset-controller", "job-controller",
            "deployment-controller", "replicaset-controller", "horizontal-pod-autoscaler-controller",
            "disruption-controller", "statefulset-controller", "cronjob-controller",
            "certificatesigningrequest-signing-controller", "certificatesigningrequest-approving-controller",
            "certificatesigningrequest-cleaner-controller", "ttl-controller", "bootstrap-signer-controller",
            "token-cleaner-controller", "node-ipam-controller", "node-lifecycle-controller",
            "taint-eviction-controller", "persistentvolume-binder-controller",
            "persistentvolume-attach-detach-controller", "persistentvolume-expander-controller",
            "clusterrole-aggregation-controller", "persistentvolumeclaim-protection-controller",
            "persistentvolume-protection-controller", "ttl-after-finished-controller",
            "root-ca-certificate-publisher-controller", "ephemeral-volume-controller",
            "storageversion-garbage-collector-controller", "resourceclaim-controller",
            "legacy-serviceaccount-token-cleaner-controller", "validatingadmissionpolicy-status-controller",
            "service-cidr-controller", "storage-version-migrator-controller");

    /** The names kube-controller-manager accepted before 1.28, for the canonical ones. */
    static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("serviceaccount-token", "serviceaccount-token-controller"),
            Map.entry("endpoint", "endpoints-controller"),
            Map.entry("endpointslice", "endpointslice-controller"),
            Map.entry("endpointslicemirroring", "endpointslice-mirroring-controller"),
            Map.entry("replicationcontroller", "replicationcontroller-controller"),
            Map.entry("podgc", "pod-garbage-collector-controller"),
            Map.entry("resourcequota", "resourcequota-controller"),
            Map.entry("namespace", "namespace-controller"),
            Map.entry("serviceaccount", "serviceaccount-controller"),
            Map.entry("garbagecollector", "garbage-collector-controller"),
            Map.entry("daemonset", "daemonset-controller"),
            Map.entry("job", "job-controller"),
            Map.entry("deployment", "deployment-controller"),
            Map.entry("replicaset", "replicaset-controller"),
            Map.entry("horizontalpodautoscaling", "horizontal-pod-autoscaler-controller"),
            Map.entry("disruption", "disruption-controller"),
            Map.entry("statefulset", "statefulset-controller"),
            Map.entry("cronjob", "cronjob-controller"),
            Map.entry("csrsigning", "certificatesigningrequest-signing-controller"),
            Map.entry("csrapproving", "certificatesigningrequest-approving-controller"),
            Map.entry("csrcleaner", "certificatesigningrequest-cleaner-controller"),
            Map.entry("ttl", "ttl-controller"),
            Map.entry("bootstrapsigner", "bootstrap-signer-controller"),
            Map.entry("tokencleaner", "token-cleaner-controller"),
            Map.entry("nodeipam", "node-ipam-controller"),
            Map.entry("nodelifecycle", "node-lifecycle-controller"),
            Map.entry("persistentvolume-binder", "persistentvolume-binder-controller"),
            Map.entry("attachdetach", "persistentvolume-attach-detach-controller"),
            Map.entry("persistentvolume-expander", "persistentvolume-expander-controller"),
            Map.entry("clusterrole-aggregation", "clusterrole-aggregation-controller"),
            Map.entry("pvc-protection", "persistentvolumeclaim-protection-controller"),
            Map.entry("pv-protection", "persistentvolume-protection-controller"),
            Map.entry("ttl-after-finished", "ttl-after-finished-controller"),
            Map.entry("root-ca-cert-publisher", "root-ca-certificate-publisher-controller"),
            Map.entry("ephemeral-volume", "ephemeral-volume-controller"),
            Map.entry("storage-version-gc", "storageversion-garbage-collector-controller"),
            Map.entry("resource-claim-controller", "resourceclaim-controller"),
            Map.entry("legacy-service-account-token-cleaner", "legacy-serviceaccount-token-cleaner-controller"));

    /** What kube leaves off under {@code *}. */
    static final Set<String> OFF_BY_DEFAULT = Set.of("bootstrap-signer-controller", "token-cleaner-controller",
            "storage-version-migrator-controller");

    /** The controllers Kapi ran before {@code --controllers} existed: {@code bin/kapi}'s default. */
    public static final List<String> KAPI_DEFAULT = List.of("namespace-controller", "serviceaccount-controller",
            "garbage-collector-controller", "serviceaccount-token-controller",
            "root-ca-certificate-publisher-controller", "persistentvolumeclaim-protection-controller",
            "persistentvolume-protection-controller", "resourcequota-controller",
            "validatingadmissionpolicy-status-controller", "clusterrole-aggregation-controller");

    public static final ControllerSelection DEFAULT = new ControllerSelection(KAPI_DEFAULT);
    /** No in-process controller ({@code --standalone=false}): a bare API server, as envtest's. */
    public static final ControllerSelection NONE = new ControllerSelection(List.of());
    /** kube-controller-manager's default, {@code *}. */
    public static final ControllerSelection ALL = new ControllerSelection(List.of("*"));

    public ControllerSelection {
        selectors = List.copyOf(selectors);
    }

    /** {@code --controllers} as given (comma-separated, possibly repeated). */
    public static ControllerSelection parse(List<String> values) {
        List<String> selectors = new ArrayList<>();
        for (String v : values) {
            for (String s : v.split(",")) {
                if (!s.isBlank()) {
                    selectors.add(s.trim());
                }
            }
        }
        return new ControllerSelection(selectors);
    }

    /** Whether the controller of canonical name {@code name} runs. */
    public boolean enabled(String name) {
        boolean star = false;
        for (String selector : selectors) {
            if (selector.equals("*")) {
                star = true;
            } else if (selector.startsWith("-") && canonical(selector.substring(1)).equals(name)) {
                return false;
            } else if (canonical(selector).equals(name)) {
                return true;
            }
        }
        return star && !OFF_BY_DEFAULT.contains(name);
    }

    /** Whether any of {@code names} runs (one Kapi controller doing the work of several of kube's). */
    public boolean anyEnabled(String... names) {
        for (String name : names) {
            if (enabled(name)) {
                return true;
            }
        }
        return false;
    }

    /** Every selector naming no controller kube knows, worded as kube-controller-manager's validation. */
    public List<String> problems() {
        Set<String> problems = new LinkedHashSet<>();
        for (String selector : selectors) {
            String name = selector.startsWith("-") ? selector.substring(1) : selector;
            if (!selector.equals("*") && !KNOWN.contains(canonical(name))) {
                problems.add("\"" + name + "\" is not in the list of known controllers");
            }
        }
        return List.copyOf(problems);
    }

    private static String canonical(String name) {
        return ALIASES.getOrDefault(name, name);
    }
}
