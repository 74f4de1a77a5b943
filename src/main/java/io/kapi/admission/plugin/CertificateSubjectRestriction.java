package io.kapi.admission.plugin;

import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.certs.SubjectName;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * kube-apiserver's default-on {@code CertificateSubjectRestriction}: a new CertificateSigningRequest for the
 * {@code kubernetes.io/kube-apiserver-client} signer must not ask for the {@code system:masters} organization.
 */
public record CertificateSubjectRestriction() implements ValidatingPlugin {

    static final String CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client";

    @Override
    public String name() {
        return "CertificateSubjectRestriction";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void validate(Attributes a) {
        if (!a.target().subresource().isEmpty() || !CertificateApproval.isCsr(a) || a.object() == null) {
            return;
        }
        String signer = a.object().path("spec").path("signerName").asText("");
        if (!signer.equals(CLIENT_SIGNER)) {
            return;
        }
        // every O of the subject, as Go's pkix.Name collects them (a multi-valued RDN's too)
        if (subject(a).organizations().contains("system:masters")) {
            throw a.forbidden("use of %s signer with system:masters group is not allowed".formatted(signer));
        }
    }

    private static SubjectName subject(Attributes a) {
        String pem;
        try {
            pem = new String(Base64.getDecoder().decode(a.object().path("spec").path("request").asText("")),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw a.forbidden("failed to parse CSR: " + e.getMessage());
        }
        try {
            return SubjectName.ofCertificateRequest(pem);
        } catch (IllegalArgumentException e) {
            throw a.forbidden("failed to parse CSR: " + e.getMessage());
        }
    }

}
