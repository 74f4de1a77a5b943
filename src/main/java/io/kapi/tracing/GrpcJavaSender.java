package io.kapi.tracing;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.kapi.machinery.GrpcBytes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.GrpcResponse;
import io.opentelemetry.sdk.common.export.GrpcSender;
import io.opentelemetry.sdk.common.export.GrpcSenderConfig;
import io.opentelemetry.sdk.common.export.GrpcSenderProvider;
import io.opentelemetry.sdk.common.export.GrpcStatusCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The OTLP exporter's gRPC transport on grpc-java, which the etcd client already brings: the exporter
 * hands over each serialised {@code Export} request, this sends it as one unary call in plain text (as
 * kube-apiserver's exporter dials its collector). Found by the exporter through {@link Provider}
 * ({@code META-INF/services}); the default OkHttp sender is left out of the build.
 */
final class GrpcJavaSender implements GrpcSender {

    private final ManagedChannel channel;
    private final MethodDescriptor<byte[], byte[]> method;
    private final long timeoutNanos;

    private GrpcJavaSender(GrpcSenderConfig config) {
        var endpoint = config.getEndpoint();
        int port = endpoint.getPort() > 0 ? endpoint.getPort() : 4317;
        this.channel = NettyChannelBuilder.forAddress(endpoint.getHost(), port).usePlaintext().build();
        this.method = GrpcBytes.unary(config.getFullMethodName());
        this.timeoutNanos = config.getTimeout().toNanos();
    }

    @Override
    public void send(io.opentelemetry.sdk.common.export.MessageWriter writer, Consumer<GrpcResponse> onResponse,
                     Consumer<Throwable> onError) {
        byte[] request;
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(writer.getContentLength());
            writer.writeMessage(out);
            request = out.toByteArray();
        } catch (IOException e) {
            onError.accept(e);
            return;
        }
        var call = channel.newCall(method, CallOptions.DEFAULT.withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS));
        var future = ClientCalls.futureUnaryCall(call, request);
        future.addListener(() -> {
            try {
                byte[] response = future.get();
                onResponse.accept(response(Status.OK, response));
            } catch (java.util.concurrent.ExecutionException e) {
                Status status = e.getCause() instanceof StatusRuntimeException s ? s.getStatus() : Status.fromThrowable(e.getCause());
                onResponse.accept(response(status, new byte[0]));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                onError.accept(e);
            } catch (RuntimeException e) {
                onError.accept(e);
            }
        }, Runnable::run);
    }

    private static GrpcResponse response(Status status, byte[] body) {
        GrpcStatusCode code = GrpcStatusCode.fromValue(status.getCode().value());
        String description = status.getDescription() == null ? "" : status.getDescription();
        return new GrpcResponse() {
            @Override
            public GrpcStatusCode getStatusCode() {
                return code;
            }

            @Override
            public String getStatusDescription() {
                return description;
            }

            @Override
            public byte[] getResponseMessage() {
                return body;
            }
        };
    }

    @Override
    public CompletableResultCode shutdown() {
        channel.shutdownNow();
        return CompletableResultCode.ofSuccess();
    }


    /** The exporter's way to this sender ({@code META-INF/services}). */
    public static final class Provider implements GrpcSenderProvider {

        @Override
        public GrpcSender createSender(GrpcSenderConfig config) {
            return new GrpcJavaSender(config);
        }
    }
}
