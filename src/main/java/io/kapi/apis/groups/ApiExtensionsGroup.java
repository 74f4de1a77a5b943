package io.kapi.apis.groups;

import io.kapi.apis.conversion.CrdV1beta1Storage;
import io.kapi.apis.defaults.ExtensionDefaults;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/**
 * The kinds of {@code apiextensions.k8s.io}: CustomResourceDefinitions, whose strategy (validation, stored
 * versions, the cleanup finalizer) is the apiextensions layer's, which the server hands in; written at rest as
 * kube-apiserver writes them, {@code v1beta1}.
 */
final class ApiExtensionsGroup {

    private static final GroupVersion V1 = new GroupVersion("apiextensions.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "CustomResourceDefinition")
                    .defaults(ExtensionDefaults::customResourceDefinition)
                    .atRest(new CrdV1beta1Storage())
                    .strategy((base, server) -> server.customResourceDefinitions().apply(base)));

    private ApiExtensionsGroup() {
    }
}
