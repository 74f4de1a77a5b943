package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.GroupVersionKind;

/**
 * Reads an object from a request body by its Content-Type (JSON or YAML), at most 3 MiB.
 * Throws {@link io.kapi.machinery.ApiException}: 415 for an unsupported type, 413 for a body too
 * large, 400 for a malformed body or one that is not an object.
 */
@FunctionalInterface
public interface BodyDecoder {

    /**
     * A body read as an object of {@code expected}, its JSON types checked against the kind's schema as
     * Go's typed decoding checks them: for bodies a handler reads itself (reviews, evictions, scale).
     *
     * @param expected the kind the endpoint serves, for the wording of errors
     */
    default Decoded decode(RestRequest request, GroupVersionKind expected) {
        return read(request, expected);
    }

    /**
     * A body read as an object of {@code expected} without its types checked: for the object a write
     * stores, whose types the store's decode stage checks in the write's one schema walk.
     */
    Decoded read(RestRequest request, GroupVersionKind expected);

    /**
     * Decodes an apply patch, worded as kube's apply patcher ({@link RequestDecoder#decodeApplied}), with
     * the same type checks as {@link #decode(RestRequest, GroupVersionKind)}.
     */
    default Decoded decodeApplied(byte[] data, GroupVersionKind expected) {
        return RequestDecoder.decodeApplied(data);
    }
}
