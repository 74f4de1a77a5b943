package io.kapi.apis.groups;

import io.kapi.apis.defaults.NetworkingDefaults;
import io.kapi.apis.validation.EndpointRules;
import io.kapi.endpoint.table.NetworkingPrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code discovery.k8s.io}. */
final class DiscoveryGroup {

    private static final GroupVersion V1 = new GroupVersion("discovery.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "EndpointSlice")
                    .defaults(NetworkingDefaults::endpointSlice)
                    .validation(EndpointRules.ENDPOINT_SLICE)
                    .printer(NetworkingPrinters::endpointSlices));

    private DiscoveryGroup() {
    }
}
