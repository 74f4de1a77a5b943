package io.kapi.server.filter;

import io.kapi.endpoint.RestRequest;
import io.kapi.request.RequestContext;
import java.io.InputStream;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A request as the filters see it: the endpoint view plus what only the connection knows.
 *
 * @param rest the request handed on to the API; its context is set by the first filter
 * @param clientCertificates the TLS client chain, leaf first; empty when none was sent
 * @param remoteAddress the peer's IP address, for logs
 */
public record ServerRequest(RestRequest rest, List<X509Certificate> clientCertificates, String remoteAddress) {

    public ServerRequest {
        clientCertificates = List.copyOf(clientCertificates);
    }

    /** The request's context (set by the first filter). */
    public RequestContext context() {
        return rest.requireContext();
    }

    public ServerRequest withContext(RequestContext context) {
        return new ServerRequest(rest.withContext(context), clientCertificates, remoteAddress);
    }

    public ServerRequest withBody(InputStream body) {
        return new ServerRequest(rest.withBody(body), clientCertificates, remoteAddress);
    }
}
