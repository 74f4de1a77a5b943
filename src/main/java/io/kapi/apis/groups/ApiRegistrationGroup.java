package io.kapi.apis.groups;

import io.kapi.apis.ApiServiceStrategy;
import io.kapi.apis.defaults.ExtensionDefaults;
import io.kapi.apis.validation.ApiServices;
import io.kapi.apis.validation.StatusPolicy;
import io.kapi.endpoint.table.ControlPlanePrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code apiregistration.k8s.io}: the APIServices the aggregator serves. */
final class ApiRegistrationGroup {

    private static final GroupVersion V1 = new GroupVersion("apiregistration.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "APIService")
                    .defaults(ExtensionDefaults::apiService)
                    .validation(ApiServices.RULES)
                    .status(StatusPolicy.EMPTY)
                    .strategy((base, server) -> new ApiServiceStrategy(base))
                    .printer(ControlPlanePrinters::apiServices));

    private ApiRegistrationGroup() {
    }
}
