package io.kapi.encryption;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * kube's KMS v2 gRPC service, {@code v2.KeyManagementService}: its three unary methods, the messages as
 * bytes ({@link KmsMessages} encodes them). Shared by the client and the tests' plugin.
 */
final class KmsService {

    static final String NAME = "v2.KeyManagementService";

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
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

    static final MethodDescriptor<byte[], byte[]> STATUS = unary("Status");
    static final MethodDescriptor<byte[], byte[]> DECRYPT = unary("Decrypt");
    static final MethodDescriptor<byte[], byte[]> ENCRYPT = unary("Encrypt");

    private KmsService() {
    }

    private static MethodDescriptor<byte[], byte[]> unary(String method) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(NAME, method))
                .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    }
}
