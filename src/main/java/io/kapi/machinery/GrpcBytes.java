package io.kapi.machinery;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * gRPC methods whose messages travel as the bytes Kapi encodes itself (KMS v2, OTLP): one marshaller of
 * {@code byte[]} for both directions, and unary methods made with it.
 */
public final class GrpcBytes {

    /** Messages as they are: bytes out, bytes in. */
    public static final MethodDescriptor.Marshaller<byte[]> MARSHALLER = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private GrpcBytes() {
    }

    /** The unary method {@code fullName} ({@code package.Service/Method}), its messages as bytes. */
    public static MethodDescriptor<byte[], byte[]> unary(String fullName) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(fullName)
                .setRequestMarshaller(MARSHALLER).setResponseMarshaller(MARSHALLER).build();
    }
}
