package io.kapi.encryption;

import io.grpc.MethodDescriptor;
import io.kapi.machinery.GrpcBytes;

/**
 * kube's KMS v2 gRPC service, {@code v2.KeyManagementService}: its three unary methods, the messages as
 * bytes ({@link KmsMessages} encodes them). Shared by the client and the tests' plugin.
 */
final class KmsService {

    static final String NAME = "v2.KeyManagementService";


    static final MethodDescriptor<byte[], byte[]> STATUS = unary("Status");
    static final MethodDescriptor<byte[], byte[]> DECRYPT = unary("Decrypt");
    static final MethodDescriptor<byte[], byte[]> ENCRYPT = unary("Encrypt");

    private KmsService() {
    }

    private static MethodDescriptor<byte[], byte[]> unary(String method) {
        return GrpcBytes.unary(MethodDescriptor.generateFullMethodName(NAME, method));
    }
}
