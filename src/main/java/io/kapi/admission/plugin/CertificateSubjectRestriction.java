package io.kapi.admission.plugin;

import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

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
        for (RDN rdn : request(a).getSubject().getRDNs(BCStyle.O)) {
            if ("system:masters".equals(IETFUtils.valueToString(rdn.getFirst().getValue()))) {
                throw a.forbidden("use of %s signer with system:masters group is not allowed".formatted(signer));
            }
        }
    }

    private static PKCS10CertificationRequest request(Attributes a) {
        String pem;
        try {
            pem = new String(Base64.getDecoder().decode(a.object().path("spec").path("request").asText("")),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw a.forbidden("failed to parse CSR: " + e.getMessage());
        }
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            if (parser.readObject() instanceof PKCS10CertificationRequest csr) {
                return csr;
            }
        } catch (IOException | RuntimeException e) {
            throw a.forbidden("failed to parse CSR: " + e.getMessage());
        }
        throw a.forbidden("failed to parse CSR: PEM block type must be CERTIFICATE REQUEST");
    }

}
