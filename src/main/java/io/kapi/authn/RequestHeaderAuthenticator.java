package io.kapi.authn;

import io.kapi.endpoint.RestRequest;
import io.kapi.user.UserInfo;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The front proxy's identity headers ({@code --requestheader-*}), as kube's {@code requestheader}
 * authenticator: trusted only on a request whose client certificate verifies against
 * {@code --requestheader-client-ca-file} and, when {@code --requestheader-allowed-names} is set, has one
 * of those CNs. The user is the first non-empty username header; groups are every value of the group
 * headers; {@code <prefix><key>: value} headers give extra {@code key} (lower-cased, URL-unescaped).
 * A request from the proxy without a username header is not authenticated by this (the next one tries).
 */
public final class RequestHeaderAuthenticator implements Authenticator {

    private final ClientCertificateAuthenticator proxies;
    private final AuthenticationConfig.RequestHeader config;

    public RequestHeaderAuthenticator(List<X509Certificate> proxyCas, AuthenticationConfig.RequestHeader config) {
        this.proxies = new ClientCertificateAuthenticator(proxyCas);
        this.config = config;
    }

    @Override
    public Optional<UserInfo> authenticate(RestRequest request, List<X509Certificate> clientCertificates) {
        if (clientCertificates.isEmpty()) {
            return Optional.empty();
        }
        // a certificate that is not the proxy's is refused here (kube's CA verifier returns its error); in the
        // union the client certificate authenticator still decides whether it is a client's
        Optional<UserInfo> proxy = proxies.authenticate(request, clientCertificates);
        if (proxy.isEmpty()) {
            return Optional.empty();
        }
        if (!config.allowedNames().isEmpty() && !config.allowedNames().contains(proxy.get().name())) {
            throw io.kapi.machinery.ApiException.unauthorized();
        }
        String name = first(request, config.usernameHeaders());
        if (name == null) {
            return Optional.empty();
        }
        String uid = first(request, config.uidHeaders());
        List<String> groups = new ArrayList<>();
        for (String header : config.groupHeaders()) {
            request.headers(header).forEach(groups::add);
        }
        return Optional.of(new UserInfo(name, uid == null ? "" : uid, groups, extra(request)));
    }

    private static String first(RestRequest request, List<String> headers) {
        for (String header : headers) {
            String value = request.header(header);
            if (value != null && !value.isEmpty()) {
                return value;
            }
        }
        return null;
    }

    private Map<String, List<String>> extra(RestRequest request) {
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (String prefix : config.extraHeaderPrefixes()) {
            String lower = prefix.toLowerCase(Locale.ROOT);
            request.headers().forEach((header, values) -> {
                if (header.toLowerCase(Locale.ROOT).startsWith(lower) && header.length() > lower.length()) {
                    String key = URLDecoder.decode(header.substring(lower.length()).toLowerCase(Locale.ROOT),
                            StandardCharsets.UTF_8);
                    extra.computeIfAbsent(key, k -> new ArrayList<>()).addAll(values);
                }
            });
        }
        return extra;
    }
}
