package io.kapi.apis.groups;

import io.kapi.apis.defaults.NetworkingDefaults;
import io.kapi.apis.validation.ClusterKinds;
import io.kapi.apis.validation.MoreKinds;
import io.kapi.apis.validation.Networking;
import io.kapi.endpoint.table.NetworkingPrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code networking.k8s.io}. */
final class NetworkingGroup {

    private static final GroupVersion V1 = new GroupVersion("networking.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "IngressClass")
                    .defaults(NetworkingDefaults::ingressClass)
                    .validation(ClusterKinds.INGRESS_CLASS)
                    .printer(NetworkingPrinters::ingressClasses),
            BuiltinKind.of(V1, "Ingress")
                    .validation(Networking.INGRESS)
                    .status(CoreGroup.LOAD_BALANCER)
                    .printer(NetworkingPrinters::ingresses),
            BuiltinKind.of(V1, "IPAddress")
                    .validation(MoreKinds.IP_ADDRESS)
                    .printer(NetworkingPrinters::ipAddresses),
            BuiltinKind.of(V1, "NetworkPolicy")
                    .defaults(NetworkingDefaults::networkPolicy)
                    .validation(Networking.NETWORK_POLICY)
                    .printer(NetworkingPrinters::networkPolicies),
            BuiltinKind.of(V1, "ServiceCIDR")
                    .validation(MoreKinds.SERVICE_CIDR)
                    .printer(NetworkingPrinters::serviceCidrs));

    private NetworkingGroup() {
    }
}
