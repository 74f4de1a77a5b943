package io.kapi.endpoint.codec;

/** A malformed body, worded as the Go library kube-apiserver uses would word it. Internal to decoding. */
final class SyntaxError extends RuntimeException {

    SyntaxError(String message) {
        super(message, null, false, false);
    }
}
