package io.kapi.certs;

import java.util.ArrayList;
import java.util.List;
import javax.security.auth.x500.X500Principal;

/**
 * The common name and organizations of a certificate's subject, as Go's
 * {@code pkix.Name.FillFromRDNSequence} reads them and kube-apiserver's x509 authenticator uses them
 * (user and groups): every attribute of every RDN in order, the last {@code CN} winning, each {@code O}
 * kept in order, their values as written (no RFC 4514 escaping), attributes whose value is not a
 * string skipped.
 */
public record SubjectName(String commonName, List<String> organizations) {

    private static final String COMMON_NAME = "2.5.4.3";
    private static final String ORGANIZATION = "2.5.4.10";

    public SubjectName {
        organizations = List.copyOf(organizations);
    }

    /** The names of {@code subject}; throws {@link IllegalArgumentException} if its encoding is malformed. */
    public static SubjectName of(X500Principal subject) {
        return of(subject.getEncoded());
    }

    /**
     * The subject of a PEM certificate signing request, as kube's {@code ParseCSR} reads it: the first PEM
     * block, a {@code CERTIFICATE REQUEST} (PKCS#10). Its signature is not checked (kube's admission does
     * not either). Throws {@link IllegalArgumentException} with the reason.
     */
    public static SubjectName ofCertificateRequest(String pem) {
        // CertificationRequest ::= SEQUENCE { certificationRequestInfo SEQUENCE { version, subject, ... }, ... }
        Der.Element info = Der.read(Pem.firstBlock(pem, "CERTIFICATE REQUEST")).expect(Der.SEQUENCE).child(0).expect(Der.SEQUENCE);
        return of(info.child(1).expect(Der.SEQUENCE).encoded());
    }

    private static SubjectName of(byte[] name) {
        String commonName = "";
        List<String> organizations = new ArrayList<>();
        for (Der.Element rdn : Der.read(name).expect(Der.SEQUENCE).children()) {
            for (Der.Element attribute : rdn.expect(Der.SET).children()) {
                Der.Element type = attribute.expect(Der.SEQUENCE).child(0);
                String value = attribute.child(1).string();
                if (value == null) {
                    continue;
                }
                switch (type.oid()) {
                    case COMMON_NAME -> commonName = value;
                    case ORGANIZATION -> organizations.add(value);
                    default -> { }
                }
            }
        }
        return new SubjectName(commonName, organizations);
    }
}
