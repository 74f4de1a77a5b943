package io.kapi.authn;

import io.kapi.certs.SubjectName;
import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.user.UserInfo;
import java.lang.System.Logger.Level;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.CertificateParsingException;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXCertPathBuilderResult;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Authenticates a TLS client certificate as kube-apiserver's x509 authenticator does: the user is the
 * subject's CN, the groups are its O values. The TLS layer takes any certificate (see
 * {@code RequestedClientCertificates}); this verifies it as Go's {@code x509.Certificate.Verify} with
 * {@code ExtKeyUsageClientAuth}: a chain from the leaf (through the intermediates the client sent) to one
 * of the client CAs, every certificate valid now, and no extended key usage in the chain that excludes
 * client authentication. A certificate that fails is refused ({@code 401}, as kube's
 * {@code x509} authenticator returns its verification error), never taken for anonymous; a verified one
 * without a CN names no user (the next authenticator, or anonymous, decides).
 *
 * <p>Verified chains are remembered (at most {@value #CACHE_SIZE}, until the first of their certificates
 * expires), so a client's requests pay for one verification, not one each.
 */
public final class ClientCertificateAuthenticator implements Authenticator {

    private static final System.Logger LOG = System.getLogger(ClientCertificateAuthenticator.class.getName());
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String ANY_USAGE = "2.5.29.37.0";
    static final int CACHE_SIZE = 1024;

    private final Set<TrustAnchor> anchors;
    private final Clock clock;
    private final Map<List<X509Certificate>, Verified> verified = new ConcurrentHashMap<>();

    public ClientCertificateAuthenticator(List<X509Certificate> clientCas) {
        this(clientCas, Clock.systemUTC());
    }

    ClientCertificateAuthenticator(List<X509Certificate> clientCas, Clock clock) {
        this.anchors = clientCas.stream().map(ca -> new TrustAnchor(ca, null)).collect(Collectors.toUnmodifiableSet());
        this.clock = clock;
    }

    @Override
    public Optional<UserInfo> authenticate(RestRequest request, List<X509Certificate> clientCertificates) {
        if (clientCertificates.isEmpty() || anchors.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Verified known = verified.get(clientCertificates);
        if (known == null || !now.isBefore(known.until()) || now.isBefore(known.from())) {
            known = verify(clientCertificates, now);
            if (known == null) {
                throw ApiException.unauthorized();
            }
            if (verified.size() >= CACHE_SIZE) {
                verified.clear();
            }
            verified.put(List.copyOf(clientCertificates), known);
        }
        return known.user();
    }

    /** The user of a chain that verifies now, or null. */
    private Verified verify(List<X509Certificate> chain, Instant now) {
        X509Certificate leaf = chain.getFirst();
        try {
            X509CertSelector target = new X509CertSelector();
            target.setCertificate(leaf);
            PKIXBuilderParameters params = new PKIXBuilderParameters(anchors, target);
            params.setRevocationEnabled(false);
            params.setDate(Date.from(now));
            params.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(chain)));
            PKIXCertPathBuilderResult result =
                    (PKIXCertPathBuilderResult) CertPathBuilder.getInstance("PKIX").build(params);
            List<X509Certificate> path = result.getCertPath().getCertificates().stream()
                    .map(X509Certificate.class::cast).toList();
            for (X509Certificate c : path) {
                if (!allowsClientAuth(c)) {
                    LOG.log(Level.DEBUG, "client certificate {0} refused: {1} is not for client authentication",
                            leaf.getSubjectX500Principal(), c.getSubjectX500Principal());
                    return null;
                }
            }
            Instant from = leaf.getNotBefore().toInstant();
            Instant until = leaf.getNotAfter().toInstant();
            for (X509Certificate c : path) {
                from = max(from, c.getNotBefore().toInstant());
                until = min(until, c.getNotAfter().toInstant());
            }
            until = min(until, result.getTrustAnchor().getTrustedCert().getNotAfter().toInstant());
            return new Verified(user(leaf), from, until);
        } catch (GeneralSecurityException e) {
            LOG.log(Level.DEBUG, "client certificate {0} refused: {1}", leaf.getSubjectX500Principal(), e.getMessage());
            return null;
        }
    }

    private static boolean allowsClientAuth(X509Certificate c) {
        try {
            List<String> usages = c.getExtendedKeyUsage();
            return usages == null || usages.contains(CLIENT_AUTH) || usages.contains(ANY_USAGE);
        } catch (CertificateParsingException e) {
            return false;
        }
    }

    private static Optional<UserInfo> user(X509Certificate leaf) {
        SubjectName subject;
        try {
            subject = SubjectName.of(leaf.getSubjectX500Principal());
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // a subject that is not a sequence of RDNs names no user
        }
        if (subject.commonName().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new UserInfo(subject.commonName(), "", subject.organizations()));
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /** A chain that verified, the user it names (empty: no CN), and the time it is valid in. */
    private record Verified(Optional<UserInfo> user, Instant from, Instant until) {
    }
}
