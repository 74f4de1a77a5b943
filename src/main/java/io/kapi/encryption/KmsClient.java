package io.kapi.encryption;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.kapi.metrics.EncryptionMetrics;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.unix.DomainSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A KMS v2 plugin on a unix socket ({@code unix:///var/run/kms.sock}), reached with gRPC over netty's
 * epoll domain-socket channel. Every call has the provider's timeout as its deadline; a failure is a
 * {@link KmsException} carrying the gRPC code, as kube reports it in its metrics.
 */
final class KmsClient implements AutoCloseable {

    private final String provider;
    private final Duration timeout;
    private final EncryptionMetrics metrics;
    private final EpollEventLoopGroup loop;
    private final ManagedChannel channel;

    @SuppressWarnings("deprecation") // EpollEventLoopGroup: grpc-netty 1.x takes the group and channel type as a pair
    KmsClient(String provider, String endpoint, Duration timeout, EncryptionMetrics metrics) {
        this.provider = provider;
        this.timeout = timeout;
        this.metrics = metrics;
        this.loop = new EpollEventLoopGroup(1);
        this.channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(URI.create(endpoint).getPath()))
                .eventLoopGroup(loop).channelType(EpollDomainSocketChannel.class).overrideAuthority("localhost")
                .usePlaintext().build();
    }

    KmsMessages.StatusResponse status() {
        return KmsMessages.statusResponse(call(KmsService.STATUS, new byte[0]));
    }

    KmsMessages.EncryptResponse encrypt(byte[] plaintext) {
        return KmsMessages.encryptResponse(call(KmsService.ENCRYPT,
                KmsMessages.encryptRequest(plaintext, UUID.randomUUID().toString())));
    }

    byte[] decrypt(byte[] ciphertext, String keyId, Map<String, byte[]> annotations) {
        return KmsMessages.decryptResponsePlaintext(call(KmsService.DECRYPT,
                KmsMessages.decryptRequest(ciphertext, UUID.randomUUID().toString(), keyId, annotations)));
    }

    private byte[] call(MethodDescriptor<byte[], byte[]> method, byte[] request) {
        long start = System.nanoTime();
        String name = "/" + method.getFullMethodName();
        try {
            byte[] response = ClientCalls.blockingUnaryCall(channel, method,
                    CallOptions.DEFAULT.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS), request);
            metrics.kmsCall(provider, name, "OK", start);
            return response;
        } catch (StatusRuntimeException e) {
            String code = goCode(e.getStatus().getCode());
            metrics.kmsCall(provider, name, code, start);
            throw new KmsException(code, "rpc error: code = " + code + " desc = " + e.getStatus().getDescription());
        }
    }

    /** Go's name of a gRPC code: {@code DEADLINE_EXCEEDED} is {@code DeadlineExceeded}. */
    static String goCode(io.grpc.Status.Code code) {
        StringBuilder out = new StringBuilder();
        for (String part : code.name().split("_")) {
            out.append(part.charAt(0)).append(part.substring(1).toLowerCase(java.util.Locale.ROOT));
        }
        return code == io.grpc.Status.Code.OK ? "OK" : out.toString();
    }

    @Override
    public void close() {
        channel.shutdownNow();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
