package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import java.util.Map;

/**
 * Marks responses {@code Cache-Control: no-cache, private} unless the handler chose otherwise, as
 * kube-apiserver's {@code WithCacheControl} does: API answers are per user and change at any time.
 */
public final class CacheControl implements Filter {

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        RestResponse response = chain.proceed(request);
        for (Map.Entry<String, String> header : response.headers()) {
            if (header.getKey().equalsIgnoreCase("Cache-Control")) {
                return response;
            }
        }
        return response.withHeader("Cache-Control", "no-cache, private");
    }
}
