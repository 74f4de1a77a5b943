package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import java.lang.System.Logger.Level;

/**
 * Logs each request at debug level ({@code -v=2} and up) after it is answered, like kube-apiserver's
 * httplog: verb, path, status, latency, user agent and client address. Streamed bodies are logged when their
 * response starts, not when they end. Outermost, so it also sees what panic recovery answered.
 */
public final class RequestLog implements Filter {

    private static final System.Logger LOG = System.getLogger(RequestLog.class.getName());

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        if (!LOG.isLoggable(Level.DEBUG)) {
            return chain.proceed(request);
        }
        long start = System.nanoTime();
        int status = 500;
        try {
            RestResponse response = chain.proceed(request);
            status = response.status();
            return response;
        } finally {
            LOG.log(Level.DEBUG, "HTTP verb={0} URI={1} latency={2}ms resp={3} userAgent={4} srcIP={5}",
                    request.rest().method(), request.rest().path(), (System.nanoTime() - start) / 1_000_000,
                    status, request.rest().header("user-agent"), request.remoteAddress());
        }
    }
}
