package io.kapi.client;

import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.user.UserInfo;
import java.util.Optional;
import java.util.function.Function;

/**
 * The server's way to itself, as kube-apiserver's loopback client: requests made in-process go through
 * the same filters (request context, authorization, write options) and handlers (admission, storage)
 * as a network client's, under an identity the server sets (no credential to authenticate).
 *
 * @param chain the request path behind the filters, as the server's handler chain runs it
 * @param resources finds a served resource (to know its scope)
 */
public record Loopback(Function<RestRequest, RestResponse> chain,
                       Function<GroupVersionResource, Optional<ApiResource>> resources) {

    /** A client acting as {@code user}, sending {@code userAgent} (which names it in managedFields). */
    public LocalClient as(UserInfo user, String userAgent) {
        return new LocalClient(this, user, userAgent);
    }
}
