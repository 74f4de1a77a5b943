package io.kapi.endpoint.table;

/**
 * How a Table is to be rendered.
 *
 * @param version {@code meta.k8s.io/v1} or {@code v1beta1}, from the Accept header
 * @param includeObject what each row's {@code object} holds, from the {@code includeObject} query parameter
 * @param noHeaders leave out {@code columnDefinitions}; kube-apiserver has this option but no client can set
 *                  it (it is {@code json:"-"}), so it is for in-process callers only
 */
public record TableOptions(MetaVersion version, IncludeObject includeObject, boolean noHeaders) {

    /** What {@code kubectl get} asks for: v1, metadata objects, headers. */
    public static final TableOptions DEFAULT = new TableOptions(MetaVersion.V1, IncludeObject.METADATA, false);

    public TableOptions {
        if (version == null || includeObject == null) {
            throw new IllegalArgumentException("version and includeObject are required");
        }
    }

    /** The same options without column definitions: for every watch event after the first. */
    public TableOptions withoutHeaders() {
        return new TableOptions(version, includeObject, true);
    }

    /**
     * Options from the request.
     *
     * @param version the {@code v} parameter of the Accept media type, e.g. {@code v1}
     * @param includeObjectParam the {@code includeObject} query parameter, or null
     * @throws io.kapi.machinery.ApiException 406 for an unknown version, 400 for an unknown includeObject
     */
    public static TableOptions of(String version, String includeObjectParam) {
        return new TableOptions(MetaVersion.parse(version), IncludeObject.parse(includeObjectParam), false);
    }
}
