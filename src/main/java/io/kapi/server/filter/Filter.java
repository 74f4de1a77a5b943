package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;

/**
 * One step of the request path in front of the API, as in kube-apiserver's handler chain (panic
 * recovery, authentication, later audit, impersonation, authorization). A filter either answers
 * itself or returns what {@code chain.proceed(request)} answers, possibly with a changed request;
 * it must do one of the two. Filters run on the request's virtual thread and may block.
 * <pre>{@code
 * Filter deny = (chain, request) -> StatusResponses.of(ApiException.methodNotAllowed());
 * Filter pass = (chain, request) -> chain.proceed(request);
 * }</pre>
 */
@FunctionalInterface
public interface Filter {

    /** Answers the request, or hands it on; never returns null. */
    RestResponse filter(FilterChain chain, ServerRequest request);
}
