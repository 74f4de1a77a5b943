package io.kapi.endpoint.codec;

/** The wire formats Kapi reads and writes. CBOR is not supported yet. */
public enum Format {
    JSON("application/json"),
    YAML("application/yaml"),
    /** Kubernetes' protobuf, for the built-in kinds (see {@code io.kapi.machinery.protobuf.ProtobufCodec}). */
    PROTOBUF("application/vnd.kubernetes.protobuf");

    private final String mediaType;

    Format(String mediaType) {
        this.mediaType = mediaType;
    }

    /** The Content-Type of a response in this format. */
    public String mediaType() {
        return mediaType;
    }
}
