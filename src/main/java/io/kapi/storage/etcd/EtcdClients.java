package io.kapi.storage.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import io.kapi.storage.StorageException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/** Builds the jetcd client of an {@link EtcdConfig}: endpoints, TLS, deadlines, fail-fast. */
final class EtcdClients {

    private EtcdClients() {
    }

    /**
     * A client that balances over every server (round robin; a member that is down is skipped) and
     * fails a call at once when no server is reachable rather than waiting for one, each unary call
     * with the configured deadline.
     */
    static Client open(EtcdConfig config) {
        ClientBuilder builder = Client.builder()
                .endpoints(config.servers().stream().map(EtcdClients::withoutTrailingSlash).toArray(String[]::new))
                .waitForReady(false)
                .connectTimeout(Duration.ofSeconds(5))
                .keepaliveTime(Duration.ofSeconds(10))
                .keepaliveTimeout(Duration.ofSeconds(5))
                .retryMaxDuration(config.requestTimeout())
                .maxInboundMessageSize(Integer.MAX_VALUE) // as kube-apiserver's client: a large list is one answer
                .interceptor(new Deadline(config.requestTimeout()));
        if (config.servers().stream().anyMatch(s -> s.toLowerCase(java.util.Locale.ROOT).startsWith("https:"))
                || config.caFile() != null || config.certFile() != null) {
            try {
                builder.sslContext(tls -> {
                    if (config.caFile() != null) {
                        tls.trustManager(config.caFile().toFile());
                    }
                    if (config.certFile() != null) {
                        tls.keyManager(config.certFile().toFile(), config.keyFile().toFile());
                    }
                });
            } catch (SSLException | IllegalArgumentException e) {
                throw new StorageException.Unavailable("cannot use the etcd TLS files: " + e.getMessage(), e);
            } catch (UncheckedIOException e) {
                throw new StorageException.Unavailable("cannot read the etcd TLS files: " + e.getMessage(), e);
            }
        }
        return builder.build();
    }

    private static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** Gives every unary call (not watch streams) a deadline, so that gRPC itself cancels it. */
    private record Deadline(Duration timeout) implements ClientInterceptor {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            CallOptions withDeadline = method.getType() == MethodDescriptor.MethodType.UNARY && options.getDeadline() == null
                    ? options.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    : options;
            return next.newCall(method, withDeadline);
        }
    }
}
