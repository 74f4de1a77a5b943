package io.kapi.testing;

/** Where an in-process server keeps its objects; both live in the server's temporary directory or heap only. */
public enum StorageBackend {

    /** In memory (the default): the fastest start, and the only backend with snapshot and restore. */
    MEMORY("memory"),

    /** The embedded durable store bin/kapi uses by default (RocksDB), in the server's temporary directory. */
    EMBEDDED("embedded");

    private final String flag;

    StorageBackend(String flag) {
        this.flag = flag;
    }

    /** The value of {@code --storage-backend} this is. */
    String flag() {
        return flag;
    }
}
