package io.kapi.e2e;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.kapi.machinery.GrpcBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * An OpenTelemetry collector's trace receiver for tests: a real gRPC server on a free loopback port
 * answering OTLP's {@code TraceService/Export}, keeping every span it is sent. The request is read
 * with protobuf's wire format directly (field numbers of {@code opentelemetry/proto/trace/v1}), so
 * no generated OTLP classes are needed.
 */
final class OtlpReceiver implements AutoCloseable {

    /** One received span: ids in lower-case hex ({@code parentSpanId} "" for a root). */
    record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, int kind) {
    }

    private final Server server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

    OtlpReceiver() {
        MethodDescriptor<byte[], byte[]> export =
                GrpcBytes.unary("opentelemetry.proto.collector.trace.v1.TraceService/Export");
        ServerServiceDefinition service = ServerServiceDefinition.builder("opentelemetry.proto.collector.trace.v1.TraceService")
                .addMethod(export, ServerCalls.asyncUnaryCall((request, response) -> {
                    try {
                        receive(request);
                    } catch (InvalidProtocolBufferException e) {
                        response.onError(e);
                        return;
                    }
                    response.onNext(new byte[0]); // an empty ExportTraceServiceResponse: all accepted
                    response.onCompleted();
                })).build();
        try {
            server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service).build().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return server.getPort();
    }

    List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    private void receive(byte[] request) throws InvalidProtocolBufferException {
        for (ByteString resourceSpans : fields(UnknownFieldSet.parseFrom(request), 1)) {
            for (ByteString scopeSpans : fields(UnknownFieldSet.parseFrom(resourceSpans), 2)) {
                for (ByteString span : fields(UnknownFieldSet.parseFrom(scopeSpans), 2)) {
                    UnknownFieldSet s = UnknownFieldSet.parseFrom(span);
                    List<Long> kind = s.hasField(6) ? s.getField(6).getVarintList() : List.of();
                    spans.add(new ReceivedSpan(hex(s, 1), hex(s, 2), hex(s, 4), first(s, 5).toStringUtf8(),
                            kind.isEmpty() ? 0 : kind.getFirst().intValue()));
                }
            }
        }
    }

    private static List<ByteString> fields(UnknownFieldSet set, int number) {
        return set.hasField(number) ? set.getField(number).getLengthDelimitedList() : List.of();
    }

    private static ByteString first(UnknownFieldSet set, int number) {
        List<ByteString> values = fields(set, number);
        return values.isEmpty() ? ByteString.EMPTY : values.getFirst();
    }

    private static String hex(UnknownFieldSet set, int number) {
        return HexFormat.of().formatHex(first(set, number).toByteArray());
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

}
