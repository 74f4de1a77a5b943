package io.kapi.endpoint;

/**
 * Answers one request. Handlers throw {@link io.kapi.machinery.ApiException} for errors; the server
 * turns it into a Status response. A handler that does not serve a path returns null so the next
 * handler of the delegation chain may.
 */
@FunctionalInterface
public interface RestHandler {
    RestResponse handle(RestRequest request);
}
