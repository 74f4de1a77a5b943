package io.kapi.aggregator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.discovery.ExternalVersion;
import io.kapi.machinery.GroupVersion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One state of the aggregated group-versions: the route of each, what discovery lists of them (the
 * resources each backend last answered its discovery check with), and their OpenAPI v3 and v2 documents by
 * {@code apis/<group>/<version>}. Immutable; replaced whole.
 */
record Routes(Map<GroupVersion, ApiServiceRoute> byGroupVersion, List<ExternalVersion> discovery,
              Map<String, String> openApiV3, Map<String, String> openApiV2) {

    static final Routes NONE = new Routes(Map.of(), List.of(), Map.of(), Map.of());

    Routes {
        byGroupVersion = Map.copyOf(byGroupVersion);
        discovery = List.copyOf(discovery);
        openApiV3 = Map.copyOf(openApiV3);
        openApiV2 = Map.copyOf(openApiV2);
    }

    /**
     * The routes with the resource lists and OpenAPI documents their backends gave; discovery in kube's
     * order: group priority, then name.
     */
    static Routes of(Map<GroupVersion, ApiServiceRoute> routes, Map<GroupVersion, ObjectNode> resourceLists,
                     Map<String, String> openApiV3, Map<String, String> openApiV2) {
        List<ExternalVersion> versions = new ArrayList<>();
        routes.values().forEach(r -> versions.add(new ExternalVersion(r.groupVersion(), r.groupPriority(),
                r.versionPriority(), resourceLists.get(r.groupVersion()))));
        versions.sort(Comparator.comparingInt(ExternalVersion::groupPriority).reversed()
                .thenComparing(v -> v.groupVersion().group())
                .thenComparing(Comparator.comparingInt(ExternalVersion::versionPriority).reversed())
                .thenComparing(v -> v.groupVersion().version()));
        return new Routes(routes, versions, openApiV3, openApiV2);
    }
}
