package io.kapi.endpoint.codec;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import java.util.List;
import java.util.Set;

/**
 * Chooses the response format from an Accept header, as kube-apiserver's {@code NegotiateOutputMediaType}
 * does: media ranges are tried best first (by q, concrete before wildcard, then header order); a range
 * matches when its type fits JSON or YAML (JSON first, so {@code * / *} and {@code application/*} mean JSON)
 * and its {@code as;g;v} parameters, if any, name a conversion the endpoint allows. Unknown parameters are
 * ignored; protobuf and CBOR ranges never match. No header means JSON.
 *
 * <p>kubectl sends e.g. {@code application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json}.
 */
public final class Negotiation {

    private static final String META = "meta.k8s.io";

    /** The conversions every resource endpoint offers: Table and PartialObjectMetadata(List), v1 and v1beta1. */
    public static final Set<GroupVersionKind> RESOURCE_CONVERSIONS = Set.of(
            new GroupVersionKind(META, "v1", "Table"),
            new GroupVersionKind(META, "v1beta1", "Table"),
            new GroupVersionKind(META, "v1", "PartialObjectMetadata"),
            new GroupVersionKind(META, "v1beta1", "PartialObjectMetadata"),
            new GroupVersionKind(META, "v1", "PartialObjectMetadataList"),
            new GroupVersionKind(META, "v1beta1", "PartialObjectMetadataList"));

    /** What the 406 message lists. */
    static final String ACCEPTED = "application/json, application/yaml";

    private static final List<Format> FORMATS = List.of(Format.JSON, Format.YAML);

    private Negotiation() {
    }

    /** Negotiates for a resource endpoint (get, list, create... of any resource). */
    public static ResponseTarget forResource(String accept) {
        return negotiate(accept, RESOURCE_CONVERSIONS);
    }

    /**
     * Negotiates against {@code conversions}, the {@code as} targets the endpoint can produce (empty for
     * endpoints that serve only their own kind).
     *
     * @throws ApiException 406 NotAcceptable when no media range can be served
     */
    public static ResponseTarget negotiate(String accept, Set<GroupVersionKind> conversions) {
        if (accept == null || accept.isBlank()) {
            return ResponseTarget.JSON;
        }
        for (MediaType range : MediaType.parseAccept(accept)) {
            for (Format format : FORMATS) {
                if (!matches(range, format)) {
                    continue;
                }
                ResponseTarget target = target(range, format, conversions);
                if (target != null) {
                    return target;
                }
            }
        }
        throw ApiException.notAcceptable(ACCEPTED);
    }

    private static boolean matches(MediaType range, Format format) {
        MediaType offered = MediaType.parse(format.mediaType());
        return (range.type().equals("*") || range.type().equals(offered.type()))
                && (range.subtype().equals("*") || range.subtype().equals(offered.subtype()));
    }

    private static ResponseTarget target(MediaType range, Format format, Set<GroupVersionKind> conversions) {
        boolean pretty = "1".equals(range.param("pretty"));
        String as = range.param("as");
        String group = range.param("g");
        String version = range.param("v");
        if (as == null && group == null && version == null) {
            return new ResponseTarget(format, null, pretty);
        }
        GroupVersionKind gvk = new GroupVersionKind(group == null ? "" : group, version == null ? "" : version,
                as == null ? "" : as);
        return conversions.contains(gvk) ? new ResponseTarget(format, gvk, pretty) : null;
    }
}
