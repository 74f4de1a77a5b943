package io.kapi.encryption;

/** A failed call to a KMS plugin, with its gRPC code name ({@code DeadlineExceeded}, {@code Unavailable}). */
final class KmsException extends IllegalStateException {

    private final String code;

    KmsException(String code, String message) {
        super(message);
        this.code = code;
    }

    String code() {
        return code;
    }
}
