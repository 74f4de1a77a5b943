package io.kapi.encryption;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A small KMS v2 plugin: a real gRPC server on a unix socket, its key encryption keys AES-GCM keys by key
 * ID, the current one switchable (a rotation), its health switchable; it counts its calls. Public for the
 * end-to-end tests, which start a server that uses it.
 */
public final class TestKmsPlugin implements AutoCloseable {

    final Path socket;
    final AtomicInteger encrypts = new AtomicInteger();
    final AtomicInteger decrypts = new AtomicInteger();
    public volatile String keyId = "key-1";
    public volatile String healthz = "ok";
    private final Map<String, SecretKeySpec> keks = new ConcurrentHashMap<>();
    private final EpollEventLoopGroup boss = new EpollEventLoopGroup(1);
    private final EpollEventLoopGroup workers = new EpollEventLoopGroup(1);
    private final Server server;

    public TestKmsPlugin(Path dir) throws IOException {
        socket = dir.resolve("kms.sock");
        Files.deleteIfExists(socket);
        ServerServiceDefinition service = ServerServiceDefinition.builder(KmsService.NAME)
                .addMethod(KmsService.STATUS, ServerCalls.asyncUnaryCall((req, out) -> {
                    out.onNext(KmsMessages.statusResponse(new KmsMessages.StatusResponse("v2", healthz, keyId)));
                    out.onCompleted();
                }))
                .addMethod(KmsService.ENCRYPT, ServerCalls.asyncUnaryCall((req, out) -> {
                    encrypts.incrementAndGet();
                    var fields = KmsMessages.read(req);
                    String id = keyId;
                    out.onNext(KmsMessages.encryptResponse(new KmsMessages.EncryptResponse(
                            crypt(Cipher.ENCRYPT_MODE, id, fields.bytes(1)), id, Map.of("kms.example.com/v", id.getBytes()))));
                    out.onCompleted();
                }))
                .addMethod(KmsService.DECRYPT, ServerCalls.asyncUnaryCall((req, out) -> {
                    decrypts.incrementAndGet();
                    var fields = KmsMessages.read(req);
                    try {
                        out.onNext(KmsMessages.decryptResponse(crypt(Cipher.DECRYPT_MODE, fields.string(3), fields.bytes(1))));
                        out.onCompleted();
                    } catch (RuntimeException e) {
                        out.onError(io.grpc.Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
                    }
                }))
                .build();
        server = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .channelType(EpollServerDomainSocketChannel.class).bossEventLoopGroup(boss).workerEventLoopGroup(workers)
                .addService(service).build().start();
    }

    public String endpoint() {
        return "unix://" + socket;
    }

    private byte[] crypt(int mode, String id, byte[] data) {
        SecretKeySpec kek = keks.computeIfAbsent(id, k -> {
            byte[] raw = new byte[32];
            new SecureRandom().nextBytes(raw);
            return new SecretKeySpec(raw, "AES");
        });
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            if (mode == Cipher.ENCRYPT_MODE) {
                byte[] nonce = new byte[12];
                new SecureRandom().nextBytes(nonce);
                c.init(mode, kek, new GCMParameterSpec(128, nonce));
                byte[] sealed = c.doFinal(data);
                byte[] out = java.util.Arrays.copyOf(nonce, 12 + sealed.length);
                System.arraycopy(sealed, 0, out, 12, sealed.length);
                return out;
            }
            c.init(mode, kek, new GCMParameterSpec(128, data, 0, 12));
            return c.doFinal(data, 12, data.length - 12);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("unknown key or bad ciphertext: " + e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
