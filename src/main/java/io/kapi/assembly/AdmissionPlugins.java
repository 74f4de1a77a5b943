package io.kapi.assembly;

import io.kapi.admission.AdmissionChain;
import io.kapi.admission.AdmissionConfiguration;
import io.kapi.admission.AdmissionPlugin;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.admission.plugin.AlwaysPullImages;
import io.kapi.admission.plugin.CertificateApproval;
import io.kapi.admission.plugin.CertificateSigning;
import io.kapi.admission.plugin.CertificateSubjectRestriction;
import io.kapi.admission.plugin.DefaultIngressClass;
import io.kapi.admission.plugin.DefaultStorageClass;
import io.kapi.admission.plugin.DefaultTolerationSeconds;
import io.kapi.admission.plugin.LimitRanger;
import io.kapi.admission.plugin.NamespaceLifecycle;
import io.kapi.admission.plugin.NodeRestriction;
import io.kapi.admission.plugin.PersistentVolumeClaimResize;
import io.kapi.admission.plugin.PodNodeSelector;
import io.kapi.admission.plugin.PodSecurity;
import io.kapi.admission.plugin.PriorityAdmission;
import io.kapi.admission.plugin.ResourceQuotaAdmission;
import io.kapi.admission.plugin.RuntimeClassAdmission;
import io.kapi.admission.plugin.ServiceAccountAdmission;
import io.kapi.admission.plugin.SignerAuthorization;
import io.kapi.admission.plugin.StorageObjectInUseProtection;
import io.kapi.admission.plugin.TaintNodesByCondition;
import io.kapi.admission.policy.MutatingAdmissionPolicyPlugin;
import io.kapi.admission.policy.ValidatingAdmissionPolicyPlugin;
import io.kapi.admission.webhook.MutatingAdmissionWebhook;
import io.kapi.admission.webhook.ValidatingAdmissionWebhook;
import io.kapi.machinery.features.FeatureGates;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Every admission plugin kube-apiserver 1.34 knows, in its execution order ({@code AllOrderedPlugins}),
 * which are on by default, and the factories of those Kapi has. Adding a plugin is one class and one
 * line in {@link #FACTORIES}. The enabled set is kube's: the defaults, plus
 * {@code --enable-admission-plugins}, minus {@code --disable-admission-plugins}; plugins Kapi lacks are
 * logged at start and skipped.
 */
public final class AdmissionPlugins {

    private static final System.Logger LOG = System.getLogger(AdmissionPlugins.class.getName());

    /** kube-apiserver 1.34's {@code AllOrderedPlugins}. */
    public static final List<String> ORDER = List.of(
            "AlwaysAdmit", "NamespaceAutoProvision", "NamespaceLifecycle", "NamespaceExists",
            "LimitPodHardAntiAffinityTopology", "LimitRanger", "ServiceAccount", "NodeRestriction",
            "TaintNodesByCondition", "AlwaysPullImages", "ImagePolicyWebhook", "PodSecurity", "PodNodeSelector",
            "Priority", "DefaultTolerationSeconds", "PodTolerationRestriction", "EventRateLimit",
            "ExtendedResourceToleration", "DefaultStorageClass", "StorageObjectInUseProtection",
            "OwnerReferencesPermissionEnforcement", "PersistentVolumeClaimResize", "RuntimeClass",
            "CertificateApproval", "CertificateSigning", "ClusterTrustBundleAttest", "CertificateSubjectRestriction",
            "DefaultIngressClass", "DenyServiceExternalIPs", "PodTopologyLabels", "MutatingAdmissionPolicy",
            "MutatingAdmissionWebhook", "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota",
            "AlwaysDeny");

    /** kube-apiserver 1.34's default-on plugins (the complement of {@code DefaultOffAdmissionPlugins}). */
    public static final Set<String> DEFAULT_ON = Set.of(
            "NamespaceLifecycle", "LimitRanger", "ServiceAccount", "DefaultStorageClass",
            "PersistentVolumeClaimResize", "DefaultTolerationSeconds", "MutatingAdmissionWebhook",
            "ValidatingAdmissionWebhook", "ResourceQuota", "StorageObjectInUseProtection", "Priority",
            "TaintNodesByCondition", "RuntimeClass", "CertificateApproval", "CertificateSigning",
            "ClusterTrustBundleAttest", "CertificateSubjectRestriction", "DefaultIngressClass", "PodSecurity",
            "PodTopologyLabels", "MutatingAdmissionPolicy", "ValidatingAdmissionPolicy");

    /** The plugins Kapi implements, by name. */
    private static final Map<String, Function<PluginContext, AdmissionPlugin>> FACTORIES = Map.ofEntries(
            Map.entry("NamespaceLifecycle", c -> new NamespaceLifecycle(c.lookup())),
            Map.entry("ServiceAccount", c -> new ServiceAccountAdmission(c.lookup())),
            Map.entry("NodeRestriction", c -> new NodeRestriction(c.lookup())),
            Map.entry("Priority", c -> new PriorityAdmission(c.lookup())),
            Map.entry("DefaultTolerationSeconds", c -> new DefaultTolerationSeconds(300, 300)),
            Map.entry("AlwaysPullImages", c -> new AlwaysPullImages()),
            Map.entry("LimitRanger", c -> new LimitRanger(c.live().watch(LimitRanger.LIMIT_RANGES))),
            Map.entry("ResourceQuota", c -> new ResourceQuotaAdmission(c.lookup(),
                    c.live().watch(ResourceQuotaAdmission.QUOTAS), c.writer())),
            Map.entry("PodNodeSelector", c -> new PodNodeSelector(c.lookup(), c.configuration())),
            Map.entry("PodSecurity", c -> new PodSecurity(c.lookup(), c.definitions(), c.configuration())),
            Map.entry("TaintNodesByCondition", c -> new TaintNodesByCondition()),
            Map.entry("DefaultStorageClass", c -> new DefaultStorageClass(c.lookup())),
            Map.entry("StorageObjectInUseProtection", c -> new StorageObjectInUseProtection()),
            Map.entry("PersistentVolumeClaimResize", c -> new PersistentVolumeClaimResize(c.lookup())),
            Map.entry("RuntimeClass", c -> new RuntimeClassAdmission(c.lookup())),
            Map.entry("DefaultIngressClass", c -> new DefaultIngressClass(c.lookup())),
            Map.entry("CertificateApproval", c -> new CertificateApproval(new SignerAuthorization(c.authorizer()))),
            Map.entry("CertificateSigning", c -> new CertificateSigning(new SignerAuthorization(c.authorizer()))),
            Map.entry("CertificateSubjectRestriction", c -> new CertificateSubjectRestriction()),
            Map.entry("MutatingAdmissionWebhook", MutatingAdmissionWebhook::new),
            Map.entry("ValidatingAdmissionWebhook", ValidatingAdmissionWebhook::new),
            Map.entry("MutatingAdmissionPolicy", MutatingAdmissionPolicyPlugin::new),
            Map.entry("ValidatingAdmissionPolicy", ValidatingAdmissionPolicyPlugin::new));

    /**
     * Plugins that do nothing unless a feature gate is on (kube's {@code InspectFeatureGates}): left out of
     * the chain when it is off.
     */
    private static final Map<String, String> GATES = Map.of("MutatingAdmissionPolicy", "MutatingAdmissionPolicy");

    private AdmissionPlugins() {
    }

    /** What is wrong with the flags, in kube-apiserver's words; empty when they are fine. */
    public static List<String> problems(List<String> enable, List<String> disable) {
        List<String> errors = new ArrayList<>();
        for (String name : enable) {
            if (!ORDER.contains(name)) {
                errors.add("enable-admission-plugins plugin \"%s\" is unknown".formatted(name));
            }
        }
        for (String name : disable) {
            if (!ORDER.contains(name)) {
                errors.add("disable-admission-plugins plugin \"%s\" is unknown".formatted(name));
            }
        }
        Set<String> both = new TreeSet<>(enable);
        both.retainAll(disable);
        if (!both.isEmpty()) {
            errors.add("[" + String.join(" ", both) + "] in enable-admission-plugins and disable-admission-plugins "
                    + "overlapped");
        }
        return errors;
    }

    /** The enabled plugin names in execution order. */
    public static List<String> enabled(List<String> enable, List<String> disable) {
        Set<String> on = new LinkedHashSet<>(DEFAULT_ON);
        on.addAll(enable);
        disable.forEach(on::remove);
        return ORDER.stream().filter(on::contains).toList();
    }

    /**
     * The chain of the enabled plugins Kapi has, each reading other objects through {@code lookup}, with
     * no configuration file.
     *
     * @throws IllegalArgumentException for unknown or overlapping names
     */
    public static AdmissionChain chain(List<String> enable, List<String> disable, ObjectLookup lookup) {
        return chain(enable, disable, AdmissionConfiguration.NONE, PluginContext.of(lookup));
    }

    /**
     * The chain of the enabled plugins Kapi has, built with {@code context} and each one's part of
     * {@code configuration}.
     *
     * @throws IllegalArgumentException for unknown or overlapping names, or a plugin configuration that is
     *         wrong (kube-apiserver does not start then either)
     */
    public static AdmissionChain chain(List<String> enable, List<String> disable, AdmissionConfiguration configuration,
                                       PluginContext context) {
        return chain(enable, disable, configuration, context, FeatureGates.DEFAULT);
    }

    /**
     * As {@link #chain(List, List, AdmissionConfiguration, PluginContext)}, with plugins behind a feature
     * gate (MutatingAdmissionPolicy) only when {@code gates} has it on.
     */
    public static AdmissionChain chain(List<String> enable, List<String> disable, AdmissionConfiguration configuration,
                                       PluginContext context, FeatureGates gates) {
        List<String> errors = problems(enable, disable);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
        List<AdmissionPlugin> plugins = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<String> gatedOff = new ArrayList<>();
        for (String name : enabled(enable, disable)) {
            Function<PluginContext, AdmissionPlugin> factory = FACTORIES.get(name);
            String gate = GATES.get(name);
            if (gate != null && !gates.enabled(gate)) {
                gatedOff.add(name);
            } else if (factory == null) {
                missing.add(name);
            } else {
                plugins.add(factory.apply(context.withConfiguration(configuration.of(name).orElse(null))));
            }
        }
        if (!missing.isEmpty()) {
            LOG.log(Level.INFO, "Admission plugins not implemented by Kapi yet, skipped: {0}", String.join(",", missing));
        }
        if (!gatedOff.isEmpty()) {
            LOG.log(Level.INFO, "Admission plugins off by their feature gate: {0}", String.join(",", gatedOff));
        }
        return new AdmissionChain(plugins);
    }

    /** Whether Kapi has the plugin. */
    public static boolean implemented(String name) {
        return FACTORIES.containsKey(name);
    }

    /** Names → factory, for tests that build one plugin. */
    static Map<String, Function<PluginContext, AdmissionPlugin>> factories() {
        return new LinkedHashMap<>(FACTORIES);
    }
}
