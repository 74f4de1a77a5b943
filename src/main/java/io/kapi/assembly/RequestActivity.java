package io.kapi.assembly;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * How many requests the API has been asked to serve (clients' and the server's own), for background work
 * that waits for a quiet moment instead of taking CPU from requests ({@link OpenApiWarmUp}).
 */
final class RequestActivity implements LongSupplier {

    private final LongAdder requests = new LongAdder();

    /** {@code api}, each request it is asked counted here first. */
    RestHandler counting(RestHandler api) {
        return new Counted(api, requests);
    }

    @Override
    public long getAsLong() {
        return requests.sum();
    }

    private record Counted(RestHandler api, LongAdder requests) implements RestHandler {

        @Override
        public RestResponse handle(RestRequest request) {
            requests.increment();
            return api.handle(request);
        }

        @Override
        public boolean servesResources() {
            return api.servesResources();
        }
    }
}
