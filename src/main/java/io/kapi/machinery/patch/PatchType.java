package io.kapi.machinery.patch;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusReason;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The patch formats of a PATCH request, told apart by its {@code Content-Type} as kube-apiserver does.
 * {@link #APPLY} (server-side apply) is recognised here so that content-type negotiation is total, but
 * its engine lives in {@code io.kapi.machinery.apply}: {@link Patches#apply} rejects it.
 */
public enum PatchType {
    JSON("application/json-patch+json"),
    MERGE("application/merge-patch+json"),
    STRATEGIC_MERGE("application/strategic-merge-patch+json"),
    APPLY("application/apply-patch+yaml");

    /** The media types a built-in resource accepts for PATCH, in kube-apiserver's order. */
    public static final List<PatchType> BUILT_IN = List.of(JSON, MERGE, STRATEGIC_MERGE, APPLY);
    private static final PatchType[] VALUES = values();

    /** The media types a custom resource accepts: no strategic merge, which needs Go struct tags. */
    public static final List<PatchType> CUSTOM = List.of(JSON, MERGE, APPLY);

    private final String mediaType;

    PatchType(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    /**
     * The patch type a {@code Content-Type} header names; parameters such as {@code ; charset=utf-8} are
     * ignored, the media type itself is matched exactly.
     *
     * @throws ApiException 415 UnsupportedMediaType listing the built-in types, for anything else
     */
    public static PatchType fromContentType(String contentType) {
        String media = contentType == null ? "" : contentType;
        int semicolon = media.indexOf(';');
        if (semicolon > 0) {
            media = media.substring(0, semicolon);
        }
        String wanted = media.trim();
        for (PatchType t : VALUES) {
            if (t.mediaType.equals(wanted)) {
                return t;
            }
        }
        throw unsupported(BUILT_IN);
    }

    /**
     * The 415 kube-apiserver answers a PATCH whose content type is not among {@code accepted}:
     * {@code the body of the request was in an unknown format - accepted media types include: ...}.
     */
    public static ApiException unsupported(List<PatchType> accepted) {
        return new ApiException(StatusReason.UNSUPPORTED_MEDIA_TYPE,
                "the body of the request was in an unknown format - accepted media types include: "
                        + accepted.stream().map(PatchType::mediaType).collect(Collectors.joining(", ")));
    }
}
