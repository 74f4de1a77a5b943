package io.kapi.storage;

/** A running watch; closing it stops delivery and frees its buffer. Closing twice is harmless. */
public interface Watch extends AutoCloseable {

    /**
     * Asks for a {@link WatchEvent.Progress}: soon after this call the listener receives one whose
     * revision is at least the store's revision at the time of the call, after every event up to
     * that revision. Calls may be coalesced (several requests, one notification); a closed or failed
     * watch ignores them. Never blocks on the listener.
     */
    void requestProgress();

    @Override
    void close();
}
