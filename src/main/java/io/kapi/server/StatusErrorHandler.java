package io.kapi.server;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusReason;
import io.kapi.server.filter.StatusResponses;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * What Jetty answers itself, before a request reaches Kapi (an invalid URI such as {@code /a%00b}, a
 * malformed HTTP/1.1 message, headers too large): a {@code metav1.Status} in JSON with Jetty's status
 * code, as every other error, instead of Jetty's HTML error page. A request line of a version Jetty does not
 * serve (HTTP/0.9, HTTP/2.0 over HTTP/1) is 400, Go's answer, not Jetty's 505.
 */
final class StatusErrorHandler extends ErrorHandler {

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        ApiException error = exception(code, message);
        response.setStatus(error.code());
        RestResponse status = StatusResponses.of(error);
        byte[] body = ((RestResponse.Bytes) status.body()).data();
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    @Override
    public ByteBuffer badMessageError(int code, String message, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        return ByteBuffer.wrap(((RestResponse.Bytes) StatusResponses.of(exception(code, message)).body()).data());
    }

    private static ApiException exception(int code, String message) {
        if (code == 505 || code == 426) {
            // Go's server answers a request line of HTTP/0.x, of HTTP/2+ over HTTP/1, or of no version at all
            // (HTTP/0.9) with 400: "unsupported protocol version", "malformed HTTP request"; Jetty answers 505, or
            // 426 Upgrade Required to an HTTP/2.0 request line
            return ApiException.badRequest("unsupported protocol version");
        }
        String text = message == null || message.isBlank() ? "the request could not be parsed" : message;
        StatusReason reason = switch (code) {
            case 413 -> StatusReason.REQUEST_ENTITY_TOO_LARGE;
            default -> code >= 500 ? StatusReason.INTERNAL_ERROR : StatusReason.BAD_REQUEST;
        };
        return new ApiException(reason, code, text, ApiException.Details.NONE);
    }
}
