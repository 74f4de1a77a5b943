package io.kapi.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERPrintableString;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Names are built with Bouncy Castle, an encoder independent of the reader under test. */
@DisplayName("a certificate subject's user and groups, as Go's pkix.Name reads them")
class SubjectNameTest {

    private static X500Principal principal(RDN... rdns) throws Exception {
        return new X500Principal(new X500Name(rdns).getEncoded());
    }

    private static RDN rdn(org.bouncycastle.asn1.ASN1ObjectIdentifier type, ASN1Encodable value) {
        return new RDN(type, value);
    }

    @Test
    @DisplayName("CN and every O, values as written: commas, plus signs and quotes are not escaped")
    void valuesAsWritten() throws Exception {
        SubjectName name = SubjectName.of(principal(rdn(BCStyle.O, new DERUTF8String("system:masters")),
                rdn(BCStyle.O, new DERPrintableString("dev, ops+qa")), rdn(BCStyle.OU, new DERUTF8String("ignored")),
                rdn(BCStyle.CN, new DERUTF8String("jane \"j\" doe, ésq"))));
        assertEquals(new SubjectName("jane \"j\" doe, ésq", List.of("system:masters", "dev, ops+qa")), name);
    }

    @Test
    @DisplayName("the last CN wins, a multi-valued RDN's attributes all count, non-string values are skipped")
    void goRules() throws Exception {
        RDN multi = new RDN(new AttributeTypeAndValue[] {
            new AttributeTypeAndValue(BCStyle.O, new DERUTF8String("b")),
            new AttributeTypeAndValue(BCStyle.CN, new DERUTF8String("second"))});
        SubjectName name = SubjectName.of(principal(rdn(BCStyle.CN, new DERUTF8String("first")),
                rdn(BCStyle.O, new DERUTF8String("a")), multi, rdn(BCStyle.O, new ASN1Integer(7))));
        assertEquals(new SubjectName("second", List.of("a", "b")), name);
    }

    @Test
    @DisplayName("a subject without CN has an empty common name")
    void noCommonName() throws Exception {
        assertEquals(new SubjectName("", List.of("g")), SubjectName.of(principal(rdn(BCStyle.O, new DERUTF8String("g")))));
        assertEquals(new SubjectName("", List.of()), SubjectName.of(new X500Principal(new byte[] {0x30, 0})));
    }

    @Test
    @DisplayName("a PEM certificate request's subject reads as kube's ParseCSR reads it; another first block is refused")
    void certificateRequest(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Openssl.ok(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "k.pem",
                "-multivalue-rdn", "-subj", "/O=dev/CN=bob+O=system:masters", "-out", "csr.pem");
        String csr = java.nio.file.Files.readString(dir.resolve("csr.pem"));
        assertEquals(new SubjectName("bob", List.of("dev", "system:masters")), SubjectName.ofCertificateRequest(csr));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SubjectName.ofCertificateRequest(java.nio.file.Files.readString(dir.resolve("k.pem"))));
        assertEquals("PEM block type must be CERTIFICATE REQUEST", e.getMessage());
    }
}
