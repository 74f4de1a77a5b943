package io.kapi.server.authn;

import io.kapi.authn.UserInfo;
import io.kapi.endpoint.RestRequest;
import java.lang.System.Logger.Level;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * Authenticates a TLS client certificate as kube-apiserver's x509 authenticator does: the user is
 * the subject's CN, the groups are its O values. The leaf must be valid now and signed by one of
 * the client CAs; this re-checks what the TLS layer verified, so that a listener trusting more CAs
 * than this authenticator (a front proxy, later) cannot widen who is accepted.
 */
public final class ClientCertificateAuthenticator implements Authenticator {

    private static final System.Logger LOG = System.getLogger(ClientCertificateAuthenticator.class.getName());
    private final List<X509Certificate> clientCas;

    public ClientCertificateAuthenticator(List<X509Certificate> clientCas) {
        this.clientCas = List.copyOf(clientCas);
    }

    @Override
    public Optional<UserInfo> authenticate(RestRequest request, List<X509Certificate> clientCertificates) {
        if (clientCertificates.isEmpty()) {
            return Optional.empty();
        }
        X509Certificate leaf = clientCertificates.getFirst();
        if (!issuedByClientCa(leaf)) {
            LOG.log(Level.DEBUG, "client certificate {0} is not signed by a client CA",
                    leaf.getSubjectX500Principal());
            return Optional.empty();
        }
        X500Name subject = X500Name.getInstance(leaf.getSubjectX500Principal().getEncoded());
        List<String> cn = values(subject, BCStyle.CN);
        if (cn.isEmpty() || cn.getFirst().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new UserInfo(cn.getFirst(), "", values(subject, BCStyle.O)));
    }

    private boolean issuedByClientCa(X509Certificate leaf) {
        try {
            leaf.checkValidity();
        } catch (GeneralSecurityException e) {
            return false;
        }
        for (X509Certificate ca : clientCas) {
            if (!ca.getSubjectX500Principal().equals(leaf.getIssuerX500Principal())) {
                continue;
            }
            try {
                leaf.verify(ca.getPublicKey());
                return true;
            } catch (GeneralSecurityException e) {
                // another CA with the same subject may have signed it
            }
        }
        return false;
    }

    private static List<String> values(X500Name name, ASN1ObjectIdentifier type) {
        return Arrays.stream(name.getRDNs(type))
                .map(RDN::getFirst)
                .map(atv -> IETFUtils.valueToString(atv.getValue()))
                .toList();
    }
}
