package io.kapi.endpoint;

import io.kapi.machinery.ApiException;
import java.util.List;

/**
 * kube-apiserver's delegation chain: each handler in turn may serve a request or pass (return null);
 * a request nobody serves is answered with kube-apiserver's 404 Status. A resource request is offered
 * only to the handlers that {@link RestHandler#servesResources serve resources}: the others would pass.
 *
 * @param handlers every handler, in order
 * @param resourceHandlers those of them that may serve a resource request, in the same order
 */
public record DelegationChain(List<RestHandler> handlers, List<RestHandler> resourceHandlers) implements RestHandler {

    public DelegationChain {
        handlers = List.copyOf(handlers);
        resourceHandlers = List.copyOf(resourceHandlers);
    }

    public DelegationChain(List<RestHandler> handlers) {
        this(handlers, handlers.stream().filter(RestHandler::servesResources).toList());
    }

    @Override
    public RestResponse handle(RestRequest request) {
        boolean resource = request.context() != null && request.context().info().resourceRequest();
        for (RestHandler handler : resource ? resourceHandlers : handlers) {
            RestResponse response = handler.handle(request);
            if (response != null) {
                return response;
            }
        }
        throw ApiException.pathNotFound();
    }

    @Override
    public boolean servesResources() {
        return !resourceHandlers.isEmpty();
    }
}
