package io.kapi.endpoint.codec;

/** The wire formats Kapi reads and writes. Protobuf and CBOR are not supported yet. */
public enum Format {
    JSON("application/json"),
    YAML("application/yaml");

    private final String mediaType;

    Format(String mediaType) {
        this.mediaType = mediaType;
    }

    /** The Content-Type of a response in this format. */
    public String mediaType() {
        return mediaType;
    }
}
