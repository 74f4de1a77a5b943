package io.kapi.endpoint.table;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusReason;

/**
 * The version of {@code meta.k8s.io} a client asked its Table or PartialObjectMetadata in
 * ({@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}). Both carry the same fields.
 */
public enum MetaVersion {
    V1("v1"),
    V1BETA1("v1beta1");

    public static final String GROUP = "meta.k8s.io";

    private final String version;

    MetaVersion(String version) {
        this.version = version;
    }

    /** E.g. {@code meta.k8s.io/v1}. */
    public String apiVersion() {
        return GROUP + "/" + version;
    }

    /**
     * The version named by the {@code v} parameter of the media type.
     *
     * @throws ApiException 406 NotAcceptable for a version with no Table, as kube-apiserver
     */
    public static MetaVersion parse(String version) {
        for (MetaVersion v : values()) {
            if (v.version.equals(version)) {
                return v;
            }
        }
        throw new ApiException(StatusReason.NOT_ACCEPTABLE, "no Table exists in group version " + GROUP + "/" + version);
    }
}
