package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.ListOptions;
import io.kapi.client.ResourceClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.UUID;

/**
 * kube-apiserver 1.34's identity lease ({@code APIServerIdentity}): the Lease
 * {@code kube-system/apiserver-<hash of the host name>} with the labels
 * {@code apiserver.kubernetes.io/identity=kube-apiserver} and {@code kubernetes.io/hostname}, held by
 * {@code <name>_<uuid>} for 3600 s and renewed every 10 s ({@link #renew()}); servers on one host share
 * the lease, as kube's do. {@link #collectGarbage()} deletes the identity leases that expired (kube:
 * at start, then hourly), left by servers that are gone.
 */
final class IdentityLease {

    static final String NAMESPACE = "kube-system";
    static final String IDENTITY_LABEL = "apiserver.kubernetes.io/identity";
    static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
    static final String COMPONENT = "kube-apiserver";
    static final int DURATION_SECONDS = 3600;
    private static final System.Logger LOG = System.getLogger(IdentityLease.class.getName());
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final ResourceClient leases;
    private final Clock clock;
    private final String hostname;
    private final String name;
    private final String holder;

    IdentityLease(ResourceClient leases, Clock clock, String hostname) {
        this.leases = leases;
        this.clock = clock;
        this.hostname = hostname;
        this.name = leaseName(hostname);
        this.holder = name + "_" + UUID.randomUUID();
    }

    /** kube's APIServerID: {@code apiserver-} and base32 of the first 16 bytes of SHA-256(len16 host, len16 "kube-apiserver"). */
    static String leaseName(String hostname) {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (String part : new String[] {hostname, COMPONENT}) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            data.write(bytes.length >> 8);
            data.write(bytes.length & 0xff);
            data.writeBytes(bytes);
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(data.toByteArray());
            return "apiserver-" + base32(hash, 16).toLowerCase(Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The kernel's host name, as Go's {@code os.Hostname}. */
    static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException | RuntimeException e) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException unknown) {
                return "localhost";
            }
        }
    }

    String name() {
        return name;
    }

    /** Creates the lease, or takes it over and renews it. */
    void renew() {
        String now = MICRO_TIME.format(clock.instant());
        if (leases.find(NAMESPACE, name).isEmpty() && Stores.createIfMissing(leases, lease(now))) {
            return;
        }
        Stores.update(leases, NAMESPACE, name, current -> {
            ObjectNode spec = current.withObjectProperty("spec");
            spec.put("holderIdentity", holder);
            spec.put("leaseDurationSeconds", DURATION_SECONDS);
            spec.put("renewTime", now);
            ObjectNode labels = ((ObjectNode) current.path("metadata")).withObjectProperty("labels");
            labels.put(IDENTITY_LABEL, COMPONENT);
            labels.put(HOSTNAME_LABEL, hostname);
            return current;
        });
    }

    /** Deletes expired identity leases (of any server); returns how many. */
    int collectGarbage() {
        int deleted = 0;
        Instant now = clock.instant();
        for (ObjectNode lease : leases.list(NAMESPACE)) {
            if (!COMPONENT.equals(lease.path("metadata").path("labels").path(IDENTITY_LABEL).asText()) || !expired(lease, now)) {
                continue;
            }
            String leaseName = lease.path("metadata").path("name").asText();
            try {
                if (leases.find(NAMESPACE, leaseName).filter(l -> expired(l, now)).isPresent()) {
                    leases.delete(NAMESPACE, leaseName, DeleteOptions.DEFAULT);
                    deleted++;
                    LOG.log(Level.INFO, "deleted the expired apiserver identity lease {0}", leaseName);
                }
            } catch (ApiException e) {
                if (e.reason() != StatusReason.NOT_FOUND) {
                    throw e;
                }
            }
        }
        return deleted;
    }

    private static boolean expired(JsonNode lease, Instant now) {
        JsonNode spec = lease.path("spec");
        if (!spec.path("renewTime").isTextual() || !spec.path("leaseDurationSeconds").canConvertToLong()) {
            return false;
        }
        Instant renewed = Instant.parse(spec.path("renewTime").asText());
        return renewed.plusSeconds(spec.path("leaseDurationSeconds").asLong()).isBefore(now);
    }

    private ObjectNode lease(String now) {
        ObjectNode lease = Json.object();
        lease.put("apiVersion", "coordination.k8s.io/v1");
        lease.put("kind", "Lease");
        ObjectNode meta = lease.putObject("metadata");
        meta.put("name", name);
        meta.put("namespace", NAMESPACE);
        ObjectNode labels = meta.putObject("labels");
        labels.put(IDENTITY_LABEL, COMPONENT);
        labels.put(HOSTNAME_LABEL, hostname);
        ObjectNode spec = lease.putObject("spec");
        spec.put("holderIdentity", holder);
        spec.put("leaseDurationSeconds", DURATION_SECONDS);
        spec.put("renewTime", now);
        return lease;
    }

    /** RFC 4648 base32 without padding of the first {@code length} bytes. */
    private static String base32(byte[] bytes, int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        StringBuilder out = new StringBuilder();
        int buffer = 0;
        int bits = 0;
        for (int i = 0; i < length; i++) {
            buffer = (buffer << 8) | (bytes[i] & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(alphabet.charAt((buffer >> (bits - 5)) & 31));
                bits -= 5;
            }
        }
        if (bits > 0) {
            out.append(alphabet.charAt((buffer << (5 - bits)) & 31));
        }
        return out.toString();
    }
}
