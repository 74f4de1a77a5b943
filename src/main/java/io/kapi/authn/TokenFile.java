package io.kapi.authn;

import io.kapi.user.UserInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --token-auth-file}: static tokens, one CSV record each, {@code token,user,uid[,"group1,group2"]},
 * as kube's {@code tokenfile}. Read once at start; a record with fewer than three fields or an empty
 * token stops the start (naming the line). A repeated token: the last record wins, as in kube.
 */
public final class TokenFile implements TokenAuthenticator {

    private final Map<String, UserInfo> users;

    private TokenFile(Map<String, UserInfo> users) {
        this.users = Map.copyOf(users);
    }

    public static TokenFile read(Path file) {
        Map<String, UserInfo> users = new HashMap<>();
        List<List<String>> records = CsvRecords.read(file);
        for (int i = 0; i < records.size(); i++) {
            List<String> r = records.get(i);
            if (r.size() < 3) {
                throw new IllegalArgumentException("token file '%s' must have at least 3 columns (token, user name, "
                        .formatted(file) + "user uid), found " + r.size());
            }
            if (r.get(0).isEmpty()) {
                throw new IllegalArgumentException("token file '%s' has an empty token in record %d".formatted(file, i + 1));
            }
            users.put(r.get(0), new UserInfo(r.get(1), r.get(2), groups(r)));
        }
        return new TokenFile(users);
    }

    static List<String> groups(List<String> record) {
        if (record.size() < 4 || record.get(3).isBlank()) {
            return List.of();
        }
        return Arrays.stream(record.get(3).split(",")).map(String::trim).filter(g -> !g.isEmpty()).toList();
    }

    @Override
    public Optional<Accepted> authenticate(String token, List<String> audiences) {
        UserInfo user = users.get(token);
        return user == null ? Optional.empty() : Accepted.of(user);
    }

    /** Compares secrets in time independent of where they differ. */
    static boolean sameSecret(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
