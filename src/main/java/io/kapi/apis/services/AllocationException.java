package io.kapi.apis.services;

/** An allocator refused a value; the message is kube-apiserver's error text for it. */
final class AllocationException extends RuntimeException {

    static final String FULL = "range is full";

    AllocationException(String message) {
        super(message, null, false, false);
    }

    static AllocationException full() {
        return new AllocationException(FULL);
    }

    boolean isFull() {
        return getMessage().equals(FULL);
    }
}
