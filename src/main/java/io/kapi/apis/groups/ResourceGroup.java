package io.kapi.apis.groups;

import io.kapi.apis.defaults.ExtensionDefaults;
import io.kapi.apis.validation.DeviceClasses;
import io.kapi.apis.validation.ResourceClaims;
import io.kapi.apis.validation.ResourceSlices;
import io.kapi.apis.validation.StatusPolicy;
import io.kapi.endpoint.table.PolicyPrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code resource.k8s.io} (dynamic resource allocation). */
final class ResourceGroup {

    private static final GroupVersion V1 = new GroupVersion("resource.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "DeviceClass")
                    .validation(DeviceClasses.RULES)
                    .printer(PolicyPrinters::deviceClasses),
            BuiltinKind.of(V1, "ResourceClaim")
                    .defaults(ExtensionDefaults::resourceClaim)
                    .validation(ResourceClaims.CLAIM)
                    .status(StatusPolicy.EMPTY)
                    .printer(PolicyPrinters::resourceClaims),
            BuiltinKind.of(V1, "ResourceClaimTemplate")
                    .defaults(ExtensionDefaults::resourceClaimTemplate)
                    .validation(ResourceClaims.TEMPLATE)
                    .printer(PolicyPrinters::resourceClaimTemplates),
            BuiltinKind.of(V1, "ResourceSlice")
                    .defaults(ExtensionDefaults::resourceSlice)
                    .validation(ResourceSlices.RULES)
                    .printer(PolicyPrinters::resourceSlices));

    private ResourceGroup() {
    }
}
