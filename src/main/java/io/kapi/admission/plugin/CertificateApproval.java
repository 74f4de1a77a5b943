package io.kapi.admission.plugin;

import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.request.Verb;

/**
 * kube-apiserver's default-on {@code CertificateApproval}: approving or denying a CertificateSigningRequest
 * (an update of its {@code approval} subresource) needs {@code approve} on {@code signers} for its signer name.
 */
public record CertificateApproval(SignerAuthorization signers) implements ValidatingPlugin {

    @Override
    public String name() {
        return "CertificateApproval";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.UPDATE;
    }

    @Override
    public void validate(Attributes a) {
        if (!"approval".equals(a.target().subresource()) || !isCsr(a) || a.object() == null) {
            return;
        }
        String signer = a.object().path("spec").path("signerName").asText("");
        if (!signers.allows(a.user(), Verb.APPROVE, signer)) {
            throw a.forbidden("user not permitted to approve requests with signerName \"%s\"".formatted(signer));
        }
    }

    static boolean isCsr(Attributes a) {
        return a.target().resource().group().equals("certificates.k8s.io")
                && a.target().resource().resource().equals("certificatesigningrequests");
    }
}
