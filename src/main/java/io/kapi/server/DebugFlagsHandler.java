package io.kapi.server;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.logs.Verbosity;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;

/**
 * {@code PUT /debug/flags/v}: changes {@code -v} while the server runs, as kube-apiserver's debug flags
 * route does (the body is the new level; the answer plain text). Like every non-resource URL it is
 * reached only through authorization, so only users allowed to {@code put} it (cluster admins) can.
 */
final class DebugFlagsHandler implements RestHandler {

    private static final System.Logger LOG = System.getLogger(DebugFlagsHandler.class.getName());
    static final String PATH = "/debug/flags/v";
    private static final int MAX_BODY = 64;

    /** Serves /debug/flags/v only, never a resource request. */
    @Override
    public boolean servesResources() {
        return false;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        if (!request.path().equals(PATH)) {
            return null;
        }
        if (!request.method().equals("PUT")) {
            return text(406, "unsupported http method");
        }
        String value;
        try (InputStream body = request.body()) {
            value = new String(body.readNBytes(MAX_BODY), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return text(400, "error reading request body: " + e.getMessage());
        }
        int level;
        try {
            level = Integer.parseInt(value.trim());
            Verbosity.set(level);
        } catch (IllegalArgumentException e) {
            return text(400, "failed set klog.logging.verbosity " + value + ": strconv.ParseInt: parsing "
                    + io.kapi.machinery.GoStrings.quote(value) + ": invalid syntax");
        }
        LOG.log(Level.INFO, "Verbosity set to {0} by {1}", level, request.user() == null ? "" : request.user().name());
        return text(200, "successfully set klog.logging.verbosity to " + value);
    }

    private static RestResponse text(int status, String message) {
        return RestResponse.bytes(status, "text/plain", (message + "\n").getBytes(StandardCharsets.UTF_8))
                .withHeader("X-Content-Type-Options", "nosniff");
    }
}
