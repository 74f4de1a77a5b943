package io.kapi.admission.plugin;

import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.request.Verb;
import java.util.Objects;

/**
 * kube-apiserver's default-on {@code CertificateSigning}: an update of a CertificateSigningRequest's
 * {@code status} that changes {@code status.certificate} needs {@code sign} on {@code signers} for its signer name.
 */
public record CertificateSigning(SignerAuthorization signers) implements ValidatingPlugin {

    @Override
    public String name() {
        return "CertificateSigning";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.UPDATE;
    }

    @Override
    public void validate(Attributes a) {
        if (!"status".equals(a.target().subresource()) || !CertificateApproval.isCsr(a) || a.object() == null
                || a.oldObject() == null) {
            return;
        }
        String now = a.object().path("status").path("certificate").asText("");
        String before = a.oldObject().path("status").path("certificate").asText("");
        if (Objects.equals(now, before)) {
            return;
        }
        String signer = a.oldObject().path("spec").path("signerName").asText("");
        if (!signers.allows(a.user(), Verb.SIGN, signer)) {
            throw a.forbidden("user not permitted to sign requests with signerName \"%s\"".formatted(signer));
        }
    }
}
