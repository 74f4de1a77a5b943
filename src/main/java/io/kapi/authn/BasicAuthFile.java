package io.kapi.authn;

import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.user.UserInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --basic-auth-file} (kube's {@code passwordfile}, removed from kube-apiserver in 1.19, kept by
 * Kapi off by default): records {@code password,user,uid[,"group1,group2"]}, used with
 * {@code Authorization: Basic}. A wrong password is 401. The server warns at start that it is insecure.
 */
public final class BasicAuthFile implements Authenticator {

    private record Entry(String password, UserInfo user) {
    }

    private final Map<String, Entry> byName;

    private BasicAuthFile(Map<String, Entry> byName) {
        this.byName = Map.copyOf(byName);
    }

    public static BasicAuthFile read(Path file) {
        Map<String, Entry> byName = new HashMap<>();
        for (List<String> r : CsvRecords.read(file)) {
            if (r.size() < 3) {
                throw new IllegalArgumentException("basic auth file '%s' must have at least 3 columns (password, "
                        .formatted(file) + "user name, user uid), found " + r.size());
            }
            byName.put(r.get(1), new Entry(r.get(0), new UserInfo(r.get(1), r.get(2), TokenFile.groups(r))));
        }
        return new BasicAuthFile(byName);
    }

    @Override
    public Optional<UserInfo> authenticate(RestRequest request, List<X509Certificate> clientCertificates) {
        String header = request.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.unauthorized();
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            throw ApiException.unauthorized();
        }
        Entry entry = byName.get(decoded.substring(0, colon));
        if (entry == null || !TokenFile.sameSecret(entry.password(), decoded.substring(colon + 1))) {
            throw ApiException.unauthorized();
        }
        return Optional.of(entry.user());
    }
}
