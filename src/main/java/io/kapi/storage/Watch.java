package io.kapi.storage;

/** A running watch; closing it stops delivery and frees its buffer. Closing twice is harmless. */
public interface Watch extends AutoCloseable {
    @Override
    void close();
}
