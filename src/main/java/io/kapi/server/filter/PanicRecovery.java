package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import java.lang.System.Logger.Level;

/**
 * The outermost filter: turns an {@link ApiException} from anywhere below into its Status, and any
 * other exception into 500 InternalError, logged with its stack trace but not shown to the client
 * (kube-apiserver's {@code WithPanicRecovery}). Errors of the JVM itself (a {@link StackOverflowError},
 * an {@link OutOfMemoryError}) are answered the same way: the request's own stack and allocations are gone
 * once it unwinds to here, and a client must never be left without an answer.
 */
public final class PanicRecovery implements Filter {

    private static final System.Logger LOG = System.getLogger(PanicRecovery.class.getName());

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        try {
            return chain.proceed(request);
        } catch (ApiException e) {
            return StatusResponses.of(e, request.rest().header("Accept"));
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "panic serving " + request.rest().method() + " " + request.rest().path()
                    + " from " + request.remoteAddress(), e);
            return StatusResponses.of(ApiException.internal(
                    "This request caused apiserver to panic. Look in the logs for details."));
        }
    }
}
