package io.kapi.testing;

/**
 * The library's own requests to a server as its admin (installing CRDs), over HTTPS or in memory.
 */
interface AdminCalls {

    /** A response: its status and body, whatever the status. */
    record Answer(int status, String body) {
    }

    /** POSTs {@code body} to {@code path} as {@code contentType}. */
    Answer post(String path, String contentType, String body);

    /** GETs {@code path}. */
    Answer get(String path);

    /** Where the server is, for messages. */
    String where();
}
