package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import java.util.List;

/** Adds {@code Warning} headers as kube-apiserver writes them: {@code 299 - "text"}. */
final class Warnings {

    private Warnings() {
    }

    static RestResponse add(RestResponse response, List<String> warnings) {
        for (String w : warnings) {
            response.withHeader("Warning", "299 - \"" + w.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        }
        return response;
    }
}
