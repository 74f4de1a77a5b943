package io.kapi.storage;

/** A running watch; closing it stops delivery and frees its buffer. Closing twice is harmless. */
public interface Watch extends AutoCloseable {

    /**
     * Asks for a {@link WatchEvent.Progress}: soon after this call the listener receives one whose
     * revision is at least the store's revision at the time of the call, after every event up to
     * that revision. Calls may be coalesced (several requests, one notification); a closed or failed
     * watch ignores them. Never blocks on the listener.
     *
     * <p>On etcd this writes a progress fence: a key next to the watched prefix, inside the range the
     * etcd watch covers but outside the prefix, whose event (hidden from the listener) comes through
     * the same etcd watcher as the prefix's events and so, by etcd's per-watcher ordering, after all
     * of them. It does not use etcd's own progress request, which etcd before 3.4.31 and 3.5.13 may
     * answer ahead of events still to be sent (etcd issues 15220 and 17507; Debian 12 ships 3.4.23).
     */
    void requestProgress();

    @Override
    void close();
}
