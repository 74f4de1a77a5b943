package io.kapi.server.filter;

import io.kapi.authn.UserInfo;
import io.kapi.endpoint.RestRequest;
import java.io.InputStream;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A request as the filters see it: the endpoint view plus what only the connection knows.
 *
 * @param rest the request handed on to the API; its {@code user} is null until authentication
 * @param clientCertificates the verified TLS client chain, leaf first; empty when none was sent
 * @param remoteAddress the peer's IP address, for logs
 */
public record ServerRequest(RestRequest rest, List<X509Certificate> clientCertificates, String remoteAddress) {

    public ServerRequest {
        clientCertificates = List.copyOf(clientCertificates);
    }

    public ServerRequest withUser(UserInfo user) {
        RestRequest r = rest;
        return new ServerRequest(new RestRequest(r.method(), r.path(), r.query(), r.headers(), r.body(), user),
                clientCertificates, remoteAddress);
    }

    public ServerRequest withBody(InputStream body) {
        RestRequest r = rest;
        return new ServerRequest(new RestRequest(r.method(), r.path(), r.query(), r.headers(), body, r.user()),
                clientCertificates, remoteAddress);
    }
}
