package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.ListResult;

/**
 * Writes objects in the form the request's Accept header asks for: JSON, YAML, a
 * {@code meta.k8s.io} Table or PartialObjectMetadata; 406 when none is acceptable.
 */
public interface ResponseWriter {

    /** One object (get, create, update, delete). */
    RestResponse object(RestRequest request, ApiResource resource, int status, ObjectNode object);

    /** A page of a list; {@code typedItems}: items keep apiVersion and kind (see {@link Lists#of}). */
    RestResponse list(RestRequest request, ApiResource resource, ListResult page, boolean typedItems);

    /** A body that is neither an object of the resource nor a list, such as a Success Status. */
    RestResponse plain(RestRequest request, int status, ObjectNode body);
}
