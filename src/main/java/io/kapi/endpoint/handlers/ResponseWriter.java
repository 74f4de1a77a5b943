package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.ListResult;
import io.kapi.registry.SharedObject;

/**
 * Writes objects in the form the request's Accept header asks for: JSON, YAML, a
 * {@code meta.k8s.io} Table or PartialObjectMetadata; 406 when none is acceptable.
 */
public interface ResponseWriter {

    /** One object (get, create, update, delete). */
    default RestResponse object(RestRequest request, ApiResource resource, int status, ObjectNode object) {
        return negotiate(request, resource).object(status, object);
    }

    /**
     * The form the request's object response will take, chosen now: a write negotiates before it reads
     * its body or changes anything (kube-apiserver's handlers do), so a request whose Accept header the
     * server cannot serve is answered 406 and writes nothing.
     *
     * @throws io.kapi.machinery.ApiException 406 when no form is acceptable
     */
    Negotiated negotiate(RestRequest request, ApiResource resource);

    /** A response form chosen for a request: writes the object it is given. */
    @FunctionalInterface
    interface Negotiated {
        RestResponse object(int status, ObjectNode object);
    }

    /**
     * One object read for this response only ({@link io.kapi.registry.ResourceStore#getShared}): the watch
     * cache's own object, which is never changed, with its encodings; or a private one.
     */
    default RestResponse shared(RestRequest request, ApiResource resource, int status, SharedObject read) {
        return object(request, resource, status, read.encodings() == null ? read.object() : read.object().deepCopy());
    }

    /** A page of a list; {@code typedItems}: items keep apiVersion and kind (see {@link Lists#of}). */
    RestResponse list(RestRequest request, ApiResource resource, ListResult page, boolean typedItems);

    /** A body that is neither an object of the resource nor a list, such as a Success Status. */
    default RestResponse plain(RestRequest request, int status, ObjectNode body) {
        return negotiatePlain(request).object(status, body);
    }

    /**
     * As {@link #negotiate}, for a response that is a plain body ({@link #plain}): chosen, or 406, before
     * the request changes anything.
     */
    Negotiated negotiatePlain(RestRequest request);
}
