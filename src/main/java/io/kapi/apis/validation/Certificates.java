package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.certs.CertificateRequest;
import io.kapi.certs.Pem;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CertificateSigningRequests, as kube 1.34's {@code pkg/apis/certificates/validation}: the request must be a
 * correctly signed PKCS#10 CSR, usages known and given once, the signer a {@code domain/path} name (not the
 * legacy one), a requested duration at least ten minutes, conditions well-formed, an issued certificate PEM
 * certificates only. An update tolerates what the stored object already had (unknown or repeated usages, the
 * legacy signer, repeated or empty condition types, both Approved and Denied, an unparsable certificate), as
 * kube's {@code getValidationOptions} does for existing data.
 */
public final class Certificates {

    static final String LEGACY_SIGNER = "kubernetes.io/legacy-unknown";

    /** {@code allValidUsages}, sorted as kube's {@code sets.String.List()}. */
    private static final List<String> USAGES = List.of("any", "cert sign", "client auth", "code signing",
            "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature",
            "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement",
            "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing",
            "timestamping");
    private static final Set<String> TRUE_ONLY = Set.of("Approved", "Denied", "Failed");
    private static final List<String> ALL_STATUSES = List.of("False", "True", "Unknown");

    private Certificates() {
    }

    /** What an update tolerates because the stored object already had it; nothing on create. */
    private record Tolerated(boolean unknownUsages, boolean duplicateUsages, boolean legacySigner,
                             boolean duplicateConditionTypes, boolean emptyConditionType, boolean approvedAndDenied,
                             boolean arbitraryCertificate) {

        static final Tolerated NOTHING = new Tolerated(false, false, false, false, false, false, false);

        static Tolerated by(ObjectNode csr, ObjectNode old) {
            List<String> usages = texts(GoValues.at(old, "spec", "usages"));
            List<String> types = texts(GoValues.items(GoValues.at(old, "status", "conditions")).stream()
                    .map(c -> c.path("type")).toList());
            JsonNode certificate = GoValues.at(csr, "status", "certificate");
            JsonNode oldCertificate = GoValues.at(old, "status", "certificate");
            return new Tolerated(
                    !USAGES.containsAll(usages),
                    new HashSet<>(usages).size() < usages.size(),
                    LEGACY_SIGNER.equals(GoValues.text(old, "spec", "signerName")),
                    new HashSet<>(types).size() < types.size(),
                    types.contains(""),
                    types.contains("Approved") && types.contains("Denied"),
                    GoValues.same(certificate, oldCertificate) || certificateProblem(oldCertificate) != null);
        }
    }

    public static final KindValidator CSR = new Rules(
            (csr, e) -> csr(csr, Tolerated.NOTHING, e),
            (csr, old, e) -> csr(csr, Tolerated.by(csr, old), e));

    private static void csr(ObjectNode csr, Tolerated tolerated, Errs e) {
        JsonNode spec = GoValues.at(csr, "spec");
        request(spec.get("request"), e);
        usages(spec, tolerated, e);
        String signer = GoValues.textOr(spec, "", "signerName");
        if (!tolerated.legacySigner() && signer.equals(LEGACY_SIGNER)) {
            e.invalidString("spec.signerName", signer, "the legacy signerName is not allowed via this API version");
        } else {
            signerName("spec.signerName", signer, e);
        }
        JsonNode seconds = spec.get("expirationSeconds");
        if (seconds != null && seconds.isNumber() && seconds.asLong() < 600) {
            e.invalid("spec.expirationSeconds", seconds.asText(), "may not specify a duration less than 600 seconds (10 minutes)");
        }
        conditions(GoValues.items(GoValues.at(csr, "status", "conditions")), tolerated, e);
        if (!tolerated.arbitraryCertificate()) {
            String problem = certificateProblem(GoValues.at(csr, "status", "certificate"));
            if (problem != null) {
                e.invalidString("status.certificate", "<certificate data>", problem);
            }
        }
    }

    /** {@code validateCSR}: Invalid with the request's bytes as Go prints a {@code []byte} ({@code %#v}). */
    private static void request(JsonNode request, Errs e) {
        byte[] bytes = bytes(request);
        try {
            CertificateRequest.check(new String(bytes == null ? new byte[0] : bytes, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException problem) {
            e.invalid("spec.request", goBytes(bytes), problem.getMessage());
        }
    }

    private static void usages(JsonNode spec, Tolerated tolerated, Errs e) {
        List<String> usages = texts(spec.get("usages"));
        if (usages.isEmpty()) {
            e.required("spec.usages", "");
        }
        if (!tolerated.unknownUsages()) {
            for (int i = 0; i < usages.size(); i++) {
                if (!USAGES.contains(usages.get(i))) {
                    e.notSupported("spec.usages[" + i + "]", GoStrings.quote(usages.get(i)), USAGES);
                }
            }
        }
        if (!tolerated.duplicateUsages()) {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < usages.size(); i++) {
                if (!seen.add(usages.get(i))) {
                    e.duplicate("spec.usages[" + i + "]", GoStrings.quote(usages.get(i)));
                }
            }
        }
    }

    /** kube's {@code ValidateSignerName}: {@code <domain of at least two DNS labels>/<DNS subdomains joined by dots>}. */
    static void signerName(String path, String signer, Errs e) {
        if (signer.isEmpty()) {
            e.required(path, "");
            return;
        }
        String[] segments = signer.split("/", -1);
        if (segments.length != 2) {
            e.invalidString(path, signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'");
            return;
        }
        if (segments[0].length() > Identifiers.DNS1123_SUBDOMAIN_MAX) {
            e.tooLong(path, Identifiers.DNS1123_SUBDOMAIN_MAX);
        }
        String[] domain = segments[0].split("\\.", -1);
        for (String label : domain) {
            List<String> problems = Identifiers.dns1123Label(label);
            if (!problems.isEmpty()) {
                problems.forEach(p -> e.invalidString(path, segments[0], "validating label " + GoStrings.quote(label) + ": " + p));
                break;
            }
        }
        if (domain.length < 2) {
            e.invalidString(path, segments[0], "should be a domain with at least two segments separated by dots");
        }
        for (String label : segments[1].split("\\.", -1)) {
            List<String> problems = Identifiers.dns1123Subdomain(label);
            if (!problems.isEmpty()) {
                problems.forEach(p -> e.invalidString(path, segments[1], "validating label " + GoStrings.quote(label) + ": " + p));
                break;
            }
        }
        int longest = Identifiers.DNS1123_SUBDOMAIN_MAX + (Identifiers.DNS1123_SUBDOMAIN_MAX + Identifiers.DNS1123_LABEL_MAX + 1) + 1;
        if (signer.length() > longest) {
            e.tooLong(path, longest);
        }
    }

    private static void conditions(List<JsonNode> conditions, Tolerated tolerated, Errs e) {
        Set<String> seen = new HashSet<>();
        boolean approved = false;
        boolean denied = false;
        for (int i = 0; i < conditions.size(); i++) {
            String at = "status.conditions[" + i + "]";
            String type = conditions.get(i).path("type").asText("");
            String status = conditions.get(i).path("status").asText("");
            if (!tolerated.emptyConditionType() && type.isEmpty()) {
                e.required(at + ".type", "");
            }
            List<String> allowed = TRUE_ONLY.contains(type) ? List.of("True") : ALL_STATUSES;
            if (status.isEmpty()) {
                e.required(at + ".status", "");
            } else if (!allowed.contains(status)) {
                e.notSupported(at + ".status", GoStrings.quote(status), allowed);
            }
            if (!tolerated.approvedAndDenied()) {
                if (type.equals("Approved")) {
                    approved = true;
                    if (denied) {
                        e.invalidString(at + ".type", type, "Approved and Denied conditions are mutually exclusive");
                    }
                } else if (type.equals("Denied")) {
                    denied = true;
                    if (approved) {
                        e.invalidString(at + ".type", type, "Approved and Denied conditions are mutually exclusive");
                    }
                }
            }
            if (!tolerated.duplicateConditionTypes() && !seen.add(type)) {
                e.duplicate(at + ".type", GoStrings.quote(type));
            }
        }
    }

    /** {@code validateCertificate}: null if {@code certificate} is absent or only CERTIFICATE blocks, else why not. */
    private static String certificateProblem(JsonNode certificate) {
        byte[] bytes = bytes(certificate);
        if (bytes == null || bytes.length == 0) {
            return null;
        }
        return Pem.certificateChainProblem(new String(bytes, StandardCharsets.UTF_8));
    }

    /** The bytes of a {@code []byte} field (base64 in JSON), null when absent or not base64. */
    private static byte[] bytes(JsonNode value) {
        if (value == null || !value.isTextual()) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(value.asText());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Go's {@code %#v} of a byte slice: {@code []byte(nil)}, or {@code []byte{0x2d, 0x2d, ...}}. */
    static String goBytes(byte[] bytes) {
        if (bytes == null) {
            return "[]byte(nil)";
        }
        StringBuilder s = new StringBuilder(8 + bytes.length * 6).append("[]byte{");
        for (int i = 0; i < bytes.length; i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append("0x").append(Integer.toHexString(bytes[i] & 0xff));
        }
        return s.append('}').toString();
    }

    private static List<String> texts(JsonNode list) {
        return GoValues.items(list).stream().map(n -> n.asText("")).toList();
    }

    private static List<String> texts(List<JsonNode> nodes) {
        return nodes.stream().map(n -> n.asText("")).toList();
    }
}
