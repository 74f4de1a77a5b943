package io.kapi.apis.groups;

import io.kapi.apis.CsrStrategy;
import io.kapi.apis.validation.Certificates;
import io.kapi.apis.validation.StatusPolicy;
import io.kapi.endpoint.table.ControlPlanePrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code certificates.k8s.io}. */
final class CertificatesGroup {

    private static final GroupVersion V1 = new GroupVersion("certificates.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "CertificateSigningRequest")
                    .validation(Certificates.CSR)
                    .status(StatusPolicy.EMPTY)
                    .strategy((base, server) -> new CsrStrategy(base))
                    .printer(ControlPlanePrinters::certificateSigningRequests));

    private CertificatesGroup() {
    }
}
