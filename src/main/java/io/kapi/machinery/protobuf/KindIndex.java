package io.kapi.machinery.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kapi.machinery.GroupVersionKind;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admission;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apiextensions;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Coordination;
import io.kubernetes.client.proto.V1Discovery;
import io.kubernetes.client.proto.V1Events;
import io.kubernetes.client.proto.V1Flowcontrol;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Node;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Resource;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import io.kubernetes.client.proto.V1alpha1Apiserverinternal;
import io.kubernetes.client.proto.V1alpha1Rbac;
import io.kubernetes.client.proto.V1alpha1Scheduling;
import io.kubernetes.client.proto.V1beta1Admissionregistration;
import io.kubernetes.client.proto.V1beta1Apiextensions;
import io.kubernetes.client.proto.V1beta1Authentication;
import io.kubernetes.client.proto.V1beta1Authorization;
import io.kubernetes.client.proto.V1beta1Batch;
import io.kubernetes.client.proto.V1beta1Certificates;
import io.kubernetes.client.proto.V1beta1Extensions;
import io.kubernetes.client.proto.V1beta1Policy;
import io.kubernetes.client.proto.V1beta1Rbac;
import io.kubernetes.client.proto.V1beta1Storage;
import io.kubernetes.client.proto.V1beta1Storagemigration;
import io.kubernetes.client.proto.V1beta2Apps;
import io.kubernetes.client.proto.V2Apidiscovery;
import io.kubernetes.client.proto.V2Autoscaling;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The protobuf message of every built-in kind, by group, version and kind, read from the descriptors
 * of {@code io.kubernetes:client-java-proto}.
 *
 * <p>A proto package names its API group: {@code k8s.io.api.core.v1} is the core group,
 * {@code k8s.io.api.apps.v1} is {@code apps/v1}, {@code k8s.io.api.rbac.v1} is
 * {@code rbac.authorization.k8s.io/v1}, and so on. The kinds of {@code meta/v1} that kube-apiserver
 * registers in every group version ({@code Status}, {@code WatchEvent}, {@code DeleteOptions}, ...) are
 * found under any group version.
 */
final class KindIndex {

    private static final String API_PREFIX = "k8s.io.api.";
    private static final String META_PACKAGE = "k8s.io.apimachinery.pkg.apis.meta.v1";
    private static final String APIEXTENSIONS_PREFIX = "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.";

    /** Groups whose name is not {@code <package>.k8s.io}. */
    private static final Map<String, String> GROUPS = Map.of(
            "core", "",
            "apps", "apps",
            "batch", "batch",
            "autoscaling", "autoscaling",
            "policy", "policy",
            "extensions", "extensions",
            "rbac", "rbac.authorization.k8s.io",
            "flowcontrol", "flowcontrol.apiserver.k8s.io",
            "apiserverinternal", "internal.apiserver.k8s.io");

    private static final KindIndex BUILT_IN = new KindIndex(List.of(
            V1.getDescriptor(), V1Admission.getDescriptor(), V1Admissionregistration.getDescriptor(),
            V1Apiextensions.getDescriptor(), V1Apps.getDescriptor(), V1Authentication.getDescriptor(),
            V1Authorization.getDescriptor(), V1Autoscaling.getDescriptor(), V1Batch.getDescriptor(),
            V1Certificates.getDescriptor(), V1Coordination.getDescriptor(), V1Discovery.getDescriptor(),
            V1Events.getDescriptor(), V1Flowcontrol.getDescriptor(), V1Networking.getDescriptor(),
            V1Node.getDescriptor(), V1Policy.getDescriptor(), V1Rbac.getDescriptor(), V1Resource.getDescriptor(),
            V1Scheduling.getDescriptor(), V1Storage.getDescriptor(), V1alpha1Apiserverinternal.getDescriptor(),
            V1alpha1Rbac.getDescriptor(), V1alpha1Scheduling.getDescriptor(),
            V1beta1Admissionregistration.getDescriptor(), V1beta1Apiextensions.getDescriptor(),
            V1beta1Authentication.getDescriptor(), V1beta1Authorization.getDescriptor(),
            V1beta1Batch.getDescriptor(), V1beta1Certificates.getDescriptor(), V1beta1Extensions.getDescriptor(),
            V1beta1Policy.getDescriptor(), V1beta1Rbac.getDescriptor(), V1beta1Storage.getDescriptor(),
            V1beta1Storagemigration.getDescriptor(), V1beta2Apps.getDescriptor(), V2Autoscaling.getDescriptor(),
            V2Apidiscovery.getDescriptor(),
            Meta.getDescriptor()));

    /** The {@code meta/v1} kinds kube-apiserver registers in every group version (and its unversioned ones). */
    private static final Set<String> EVERY_GROUP_VERSION = Set.of(
            "Status", "WatchEvent", "DeleteOptions", "ListOptions", "GetOptions", "CreateOptions", "UpdateOptions",
            "PatchOptions", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList");

    private final Map<GroupVersionKind, Descriptor> kinds = new HashMap<>();
    private final Set<String> groups = new HashSet<>();
    private final Map<String, Descriptor> meta = new HashMap<>();

    private KindIndex(List<FileDescriptor> files) {
        for (FileDescriptor file : files) {
            String pkg = file.getPackage();
            if (pkg.equals(META_PACKAGE)) {
                file.getMessageTypes().forEach(d -> meta.put(d.getName(), d));
                continue;
            }
            groupVersion(pkg).ifPresent(gv -> {
                groups.add(gv[0]);
                file.getMessageTypes().forEach(d -> kinds.put(new GroupVersionKind(gv[0], gv[1], d.getName()), d));
            });
        }
    }

    /** The index of the kinds built into kube-apiserver. */
    static KindIndex builtIn() {
        return BUILT_IN;
    }

    /**
     * The message of {@code gvk}: a kind of its group version, else a {@code meta/v1} kind of that name:
     * any of {@code meta.k8s.io}, or one kube-apiserver registers in every group version ({@code Status},
     * {@code WatchEvent}, {@code DeleteOptions}, ...; a custom resource's own kind of such a name is not).
     */
    Optional<Descriptor> find(GroupVersionKind gvk) {
        Descriptor d = kinds.get(gvk);
        if (d != null) {
            return Optional.of(d);
        }
        if (gvk.group().equals("meta.k8s.io") || EVERY_GROUP_VERSION.contains(gvk.kind()) && builtInGroup(gvk.group())) {
            return Optional.ofNullable(meta.get(gvk.kind()));
        }
        return Optional.empty();
    }

    /** Whether {@code group} is one of the built-in API groups (the core group included). */
    private boolean builtInGroup(String group) {
        return groups.contains(group);
    }

    /** The group and version of a proto package, or empty if it is not an API group. */
    static Optional<String[]> groupVersion(String pkg) {
        if (pkg.startsWith(APIEXTENSIONS_PREFIX)) {
            return Optional.of(new String[] {"apiextensions.k8s.io", pkg.substring(APIEXTENSIONS_PREFIX.length())});
        }
        if (!pkg.startsWith(API_PREFIX)) {
            return Optional.empty();
        }
        String rest = pkg.substring(API_PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot < 0) {
            return Optional.empty();
        }
        String name = rest.substring(0, dot);
        String group = GROUPS.getOrDefault(name, name + ".k8s.io");
        return Optional.of(new String[] {group, rest.substring(dot + 1)});
    }
}
