package io.kapi.apis.groups;

import io.kapi.machinery.GroupVersionKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one index of the built-in kinds: every kind its group's registration file declares (one file per API
 * group, in the order of discovery), by group, version and kind. The resource definitions of the built-in
 * resources, and so the registry, the table printers and the admission plugins, find a kind's behaviour
 * here and nowhere else; adding a built-in kind is adding it to its group's file (and its row to the
 * resource table). A kind registered twice fails the class's initialization.
 */
public final class BuiltinKinds {

    private static final Map<GroupVersionKind, BuiltinKind> KINDS = index(List.of(
            CoreGroup.KINDS, ApiRegistrationGroup.KINDS, AppsGroup.KINDS, EventsGroup.KINDS,
            AuthenticationGroup.KINDS, AuthorizationGroup.KINDS, AutoscalingGroup.KINDS, BatchGroup.KINDS,
            CertificatesGroup.KINDS, NetworkingGroup.KINDS, PolicyGroup.KINDS, RbacGroup.KINDS, StorageGroup.KINDS,
            AdmissionRegistrationGroup.KINDS, ApiExtensionsGroup.KINDS, SchedulingGroup.KINDS,
            CoordinationGroup.KINDS, NodeGroup.KINDS, DiscoveryGroup.KINDS, FlowControlGroup.KINDS,
            ResourceGroup.KINDS));

    private BuiltinKinds() {
    }

    /** The registration of {@code gvk}, or empty when it is not a built-in kind. */
    public static Optional<BuiltinKind> find(GroupVersionKind gvk) {
        return Optional.ofNullable(KINDS.get(gvk));
    }

    /** The registration of {@code gvk}, or a kind with no behaviour beyond its schema when it has none. */
    public static BuiltinKind of(GroupVersionKind gvk) {
        BuiltinKind kind = KINDS.get(gvk);
        return kind != null ? kind : BuiltinKind.of(gvk);
    }

    /** Every registration, group by group in discovery order. */
    public static List<BuiltinKind> all() {
        return List.copyOf(KINDS.values());
    }

    /**
     * The registrations of {@code groups} by kind.
     *
     * @throws IllegalStateException when two registrations have the same group, version and kind
     */
    static Map<GroupVersionKind, BuiltinKind> index(List<List<BuiltinKind>> groups) {
        Map<GroupVersionKind, BuiltinKind> out = new LinkedHashMap<>();
        List<GroupVersionKind> twice = new ArrayList<>();
        for (List<BuiltinKind> group : groups) {
            for (BuiltinKind kind : group) {
                if (out.putIfAbsent(kind.gvk(), kind) != null) {
                    twice.add(kind.gvk());
                }
            }
        }
        if (!twice.isEmpty()) {
            throw new IllegalStateException("built-in kinds registered twice: " + twice);
        }
        return Collections.unmodifiableMap(out);
    }
}
