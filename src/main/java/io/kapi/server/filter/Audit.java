package io.kapi.server.filter;

import io.kapi.audit.AuditContext;
import io.kapi.audit.Auditor;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.net.IpAddress;
import io.kapi.request.Verb;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code WithAudit}, right after authentication: evaluates the policy for the authenticated user,
 * writes RequestReceived (refusing the request when a blocking-strict backend cannot store it), runs the
 * rest of the chain with the request's {@link AuditContext} current, then records the response: its
 * status, and the request and response objects at the levels that keep them. A complete response writes
 * ResponseComplete before it goes out; a streamed one (watch, proxy) ResponseStarted when its writer starts
 * and ResponseComplete when it ends; an unexpected failure Panic. Without a policy it only proceeds.
 */
public record Audit(Auditor auditor) implements Filter {

    /** Bodies kept for the event at most this long (the request body limit). */
    private static final int MAX_CAPTURE = 3 * 1024 * 1024;
    /** Set by this filter for the {@linkplain #failedAuthentication() filter before authentication}. */
    private static final ScopedValue<boolean[]> REACHED = ScopedValue.newInstance();

    /**
     * kube's {@code WithFailedAuthenticationAudit}, to go right before authentication: a request refused
     * 401 there (it never reached this filter) is audited with an empty user, as one ResponseStarted event
     * with code 401.
     */
    public Filter failedAuthentication() {
        return (chain, request) -> {
            if (!auditor.enabled()) {
                return chain.proceed(request);
            }
            boolean[] reached = new boolean[1];
            try {
                return ScopedValue.where(REACHED, reached).call(() -> chain.proceed(request));
            } catch (ApiException e) {
                if (!reached[0] && e.code() == 401) {
                    AuditContext audit = auditor.begin(request.context(), requestUri(request.rest()),
                            sourceIps(request), Instant.now());
                    if (audit != null) {
                        audit.failedAuthentication();
                    }
                }
                throw e;
            }
        };
    }

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        if (!auditor.enabled()) {
            return chain.proceed(request);
        }
        if (REACHED.isBound()) {
            REACHED.get()[0] = true;
        }
        RestRequest rest = request.rest();
        AuditContext audit = auditor.begin(request.context(), requestUri(rest), sourceIps(request), Instant.now());
        if (audit == null) {
            return chain.proceed(request);
        }
        if (!audit.requestReceived()) {
            return RestResponse.bytes(500, "text/plain; charset=utf-8", ("Internal Server Error: \""
                    + requestUri(rest) + "\": failed to store audit event\n").getBytes(StandardCharsets.UTF_8));
        }
        Verb verb = request.context().info().verb();
        boolean objectBody = verb == Verb.CREATE || verb == Verb.UPDATE;
        Capture body = audit.wantsRequestBody(objectBody) && request.context().info().resourceRequest()
                ? new Capture(rest.body()) : null;
        ServerRequest next = body == null ? request : request.withBody(body);
        RestResponse response;
        try {
            response = audit.call(() -> {
                try {
                    return chain.proceed(next);
                } catch (ApiException e) {
                    return StatusResponses.of(e, rest.header("Accept"));
                }
            });
        } catch (RuntimeException | Error e) {
            audit.panic(e);
            throw e;
        }
        if (body != null) {
            audit.requestBody(body.bytes(), rest.header("Content-Type"), objectBody);
        }
        return switch (response.body()) {
            case RestResponse.Bytes b -> {
                audit.response(response.status(), b.data(), b.data() == null ? 0 : b.data().length, b.contentType());
                if (request.context().info().longRunning()) {
                    audit.responseStarted(); // kube writes it at the headers of any long-running request
                }
                audit.responseComplete();
                yield response;
            }
            case RestResponse.Stream s -> new RestResponse(response.status(), response.headers(),
                    new RestResponse.Stream(s.contentType(), out -> {
                        audit.response(response.status(), null, 0, null);
                        audit.responseStarted();
                        try {
                            s.writer().writeTo(out);
                        } finally {
                            audit.responseComplete();
                        }
                    }));
            case RestResponse.Encoded e -> new RestResponse(response.status(), response.headers(),
                    new RestResponse.Encoded(e.contentType(), out -> {
                        ByteArrayOutputStream copy = audit.wantsResponseBody() ? new ByteArrayOutputStream() : null;
                        if (request.context().info().longRunning()) {
                            audit.response(response.status(), null, 0, null);
                            audit.responseStarted(); // a proxied answer of a long-running request
                        }
                        try {
                            e.writer().writeTo(copy == null ? out : new Tee(out, copy));
                        } finally {
                            audit.response(response.status(), copy == null ? null : copy.toByteArray(),
                                    copy == null ? 0 : copy.size(), e.contentType());
                            audit.responseComplete();
                        }
                    }));
        };
    }

    /** The path and query as the client sent them (Go's {@code RequestURI}), re-encoded from the parsed query. */
    static String requestUri(RestRequest rest) {
        if (rest.query().isEmpty()) {
            return rest.path();
        }
        StringBuilder b = new StringBuilder(rest.path()).append('?');
        boolean first = true;
        for (Map.Entry<String, List<String>> e : rest.query().entrySet()) {
            for (String v : e.getValue().isEmpty() ? List.of("") : e.getValue()) {
                if (!first) {
                    b.append('&');
                }
                first = false;
                b.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
                        .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        }
        return b.toString();
    }

    /** kube's {@code SourceIPs}: X-Forwarded-For, then X-Real-Ip if new, then the peer unless it is the last. */
    static List<String> sourceIps(ServerRequest request) {
        List<String> ips = new ArrayList<>(2);
        String forwarded = request.rest().header("X-Forwarded-For");
        if (forwarded != null) {
            for (String part : forwarded.split(",")) {
                IpAddress ip = IpAddress.parseOrNull(part.trim());
                if (ip != null) {
                    ips.add(ip.toString());
                }
            }
        }
        String real = request.rest().header("X-Real-Ip");
        IpAddress realIp = real == null ? null : IpAddress.parseOrNull(real.trim());
        if (realIp != null && !ips.contains(realIp.toString())) {
            ips.add(realIp.toString());
        }
        String remote = request.remoteAddress();
        IpAddress peer = remote == null ? null : IpAddress.parseOrNull(remote.replace("[", "").replace("]", ""));
        if (peer != null && (ips.isEmpty() || !ips.getLast().equals(peer.toString()))) {
            ips.add(peer.toString());
        }
        return ips;
    }

    /** The request body, kept as the handler reads it (at most {@link #MAX_CAPTURE} bytes). */
    private static final class Capture extends FilterInputStream {
        private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

        Capture(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c >= 0 && copy.size() < MAX_CAPTURE) {
                copy.write(c);
            }
            return c;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0 && copy.size() < MAX_CAPTURE) {
                copy.write(b, off, Math.min(n, MAX_CAPTURE - copy.size()));
            }
            return n;
        }

        byte[] bytes() {
            return copy.toByteArray();
        }
    }

    /** Writes to the client and to the event's copy. */
    private static final class Tee extends FilterOutputStream {
        private final ByteArrayOutputStream copy;

        Tee(OutputStream out, ByteArrayOutputStream copy) {
            super(out);
            this.copy = copy;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            if (copy.size() < MAX_CAPTURE) {
                copy.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            if (copy.size() < MAX_CAPTURE) {
                copy.write(b, off, len);
            }
        }
    }
}
