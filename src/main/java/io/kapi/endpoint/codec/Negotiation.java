package io.kapi.endpoint.codec;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoBool;
import io.kapi.machinery.GroupVersionKind;
import java.util.List;
import java.util.Set;

/**
 * Chooses the response format from an Accept header, as kube-apiserver's {@code NegotiateOutputMediaType}
 * does: media ranges are tried best first (by q, concrete before wildcard, then header order); a range
 * matches a format when its type fits it (formats in kube's order JSON, YAML, protobuf, so {@code * / *} and
 * {@code application/*} mean JSON) and the endpoint allows the format for what the range asks: the object
 * itself in protobuf only where the kind has a protobuf form (the built-in kinds, not custom resources: kube's
 * {@code StandardSerializers}), a Table in JSON or YAML only, PartialObjectMetadata(List) in any format
 * (kube's {@code AllowsMediaTypeTransform}). A format whose most specific range has {@code q=0} is never
 * chosen. {@code stream=watch} is allowed (the watch handler reads it itself), other stream values are not;
 * unknown parameters are ignored; CBOR ranges never match. No header means JSON.
 *
 * <p>kubectl sends e.g. {@code application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json};
 * client-go's controllers {@code application/vnd.kubernetes.protobuf,application/json}; its metadata client
 * {@code application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json}.
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

    /**
     * The conversions of the discovery endpoints {@code /api} and {@code /apis}: the aggregated
     * {@code apidiscovery.k8s.io} v2 and v2beta1 {@code APIGroupDiscoveryList} kubectl 1.30+ asks for first.
     */
    public static final Set<GroupVersionKind> DISCOVERY_CONVERSIONS = Set.of(
            new GroupVersionKind("apidiscovery.k8s.io", "v2", "APIGroupDiscoveryList"),
            new GroupVersionKind("apidiscovery.k8s.io", "v2beta1", "APIGroupDiscoveryList"));

    /** What the 406 message lists: every format kube-apiserver's serializers offer, as it does. */
    public static final String ACCEPTED = "application/json, application/yaml, application/vnd.kubernetes.protobuf";

    private static final List<Format> FORMATS = List.of(Format.JSON, Format.YAML, Format.PROTOBUF);

    private Negotiation() {
    }

    /**
     * Negotiates for a resource endpoint (get, list, create... of any resource).
     *
     * @param protobuf whether the resource's kind has a protobuf form (a built-in kind)
     */
    public static ResponseTarget forResource(String accept, boolean protobuf) {
        return negotiate(accept, RESOURCE_CONVERSIONS, protobuf);
    }

    /**
     * Negotiates against {@code conversions}, the {@code as} targets the endpoint can produce (empty for
     * endpoints that serve only their own kind).
     *
     * @param protobuf whether the endpoint's own kind (without conversion) can be written in protobuf
     * @throws ApiException 406 NotAcceptable when no media range can be served
     */
    public static ResponseTarget negotiate(String accept, Set<GroupVersionKind> conversions, boolean protobuf) {
        if (accept == null || accept.isBlank() || accept.equals("application/json")) {
            return ResponseTarget.JSON;
        }
        List<MediaType> ranges = MediaType.parseAccept(accept);
        List<Format> candidates = FORMATS.stream().filter(f -> !rejected(accept, f)).toList();
        for (MediaType range : ranges) {
            for (Format format : candidates) {
                if (!matches(range, format)) {
                    continue;
                }
                ResponseTarget target = target(range, format, conversions, protobuf);
                if (target != null) {
                    return target;
                }
            }
        }
        throw ApiException.notAcceptable(ACCEPTED);
    }

    /**
     * Whether kube-apiserver's negotiation would serve the query parameter {@code pretty} and User-Agent as
     * indented JSON: {@code ?pretty=true} (Go's ParseBool) decides when present; otherwise curl, Wget and
     * browsers get indented output. OR it with {@link ResponseTarget#pretty()}.
     */
    public static boolean prettyPrint(String prettyParam, String userAgent) {
        if (prettyParam != null && !prettyParam.isEmpty()) {
            return GoBool.parse(prettyParam).orElse(false);
        }
        return userAgent != null && (userAgent.startsWith("curl") || userAgent.startsWith("Wget")
                || userAgent.startsWith("Mozilla/5.0"));
    }

    private static boolean matches(MediaType range, Format format) {
        MediaType offered = MediaType.parse(format.mediaType());
        return range.type().equals("*") && range.subtype().equals("*")
                || range.type().equals(offered.type())
                && (range.subtype().equals("*") || range.subtype().equals(offered.subtype()));
    }

    /** A format is rejected when its most specific matching range has {@code q=0} (RFC 9110). */
    private static boolean rejected(String accept, Format format) {
        MediaType offered = MediaType.parse(format.mediaType());
        int best = -1;
        boolean rejected = false;
        for (String part : accept.split(",")) {
            MediaType range = part.isBlank() ? null : MediaType.parse(part);
            if (range == null) {
                continue;
            }
            int specificity = range.type().equals(offered.type()) && range.subtype().equals(offered.subtype()) ? 2
                    : range.type().equals(offered.type()) && range.subtype().equals("*") ? 1
                    : range.type().equals("*") && range.subtype().equals("*") ? 0 : -1;
            if (specificity > best) {
                best = specificity;
                rejected = range.q() <= 0;
            }
        }
        return rejected;
    }

    private static ResponseTarget target(MediaType range, Format format, Set<GroupVersionKind> conversions,
                                         boolean protobuf) {
        String stream = range.param("stream");
        if (stream != null && !stream.isEmpty() && !stream.equals("watch")) {
            return null;
        }
        boolean pretty = "1".equals(range.param("pretty"));
        String as = range.param("as");
        String group = range.param("g");
        String version = range.param("v");
        if (as == null && group == null && version == null) {
            return format != Format.PROTOBUF || protobuf ? new ResponseTarget(format, null, pretty) : null;
        }
        GroupVersionKind gvk = new GroupVersionKind(group == null ? "" : group, version == null ? "" : version,
                as == null ? "" : as);
        if (!conversions.contains(gvk) || format == Format.PROTOBUF && !protobufConversion(gvk)) {
            return null;
        }
        return new ResponseTarget(format, gvk, pretty);
    }

    /** Conversions with a protobuf form: PartialObjectMetadata(List) and the aggregated discovery list, not Table. */
    private static boolean protobufConversion(GroupVersionKind gvk) {
        return !gvk.kind().equals("Table");
    }
}
