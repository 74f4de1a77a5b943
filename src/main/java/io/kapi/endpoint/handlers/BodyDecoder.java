package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.GroupVersionKind;

/**
 * Reads an object from a request body by its Content-Type (JSON or YAML), at most 3 MiB.
 * Throws {@link io.kapi.machinery.ApiException}: 415 for an unsupported type, 413 for a body too
 * large, 400 for a malformed body or one that is not an object.
 */
@FunctionalInterface
public interface BodyDecoder {

    /** @param expected the kind the endpoint serves, for the wording of errors */
    Decoded decode(RestRequest request, GroupVersionKind expected);

    /** Decodes bytes already read (an apply patch) in a known format, with the same checks. */
    default Decoded decode(Format format, byte[] data, GroupVersionKind expected) {
        return RequestDecoder.decode(format, data, expected);
    }
}
