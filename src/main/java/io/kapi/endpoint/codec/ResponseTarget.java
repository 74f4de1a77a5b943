package io.kapi.endpoint.codec;

import io.kapi.machinery.GroupVersionKind;

/**
 * What a response must be, as negotiated from the Accept header.
 *
 * @param format the wire format; its media type is the response's Content-Type
 * @param as the kind to convert the object to before encoding ({@code meta.k8s.io/v1 Table},
 *     {@code PartialObjectMetadata}, {@code PartialObjectMetadataList}, ...), or null for the object itself
 * @param pretty whether the client asked for indented output ({@code pretty=1} on the media type)
 */
public record ResponseTarget(Format format, GroupVersionKind as, boolean pretty) {

    /** Plain JSON of the object itself: the answer to a request without an Accept header. */
    public static final ResponseTarget JSON = new ResponseTarget(Format.JSON, null, false);

    /** Whether the object is to be converted (Table, PartialObjectMetadata...) before encoding. */
    public boolean converts() {
        return as != null;
    }

    /** Whether the conversion asked for is {@code kind} ({@code Table}, ...), in any version. */
    public boolean isAs(String kind) {
        return as != null && as.kind().equals(kind);
    }
}
