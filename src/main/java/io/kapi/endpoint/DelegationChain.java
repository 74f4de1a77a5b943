package io.kapi.endpoint;

import io.kapi.machinery.ApiException;
import java.util.List;

/**
 * kube-apiserver's delegation chain: each handler in turn may serve a request or pass (return null);
 * a request nobody serves is answered with kube-apiserver's 404 Status.
 */
public record DelegationChain(List<RestHandler> handlers) implements RestHandler {

    @Override
    public RestResponse handle(RestRequest request) {
        for (RestHandler handler : handlers) {
            RestResponse response = handler.handle(request);
            if (response != null) {
                return response;
            }
        }
        throw ApiException.pathNotFound();
    }
}
