package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The container statuses a kubelet on containerd reports, for containers that run nothing: image names as
 * containerd normalises them ({@code nginx} is {@code docker.io/library/nginx:latest}), an image ID and a
 * container ID derived from the Pod's UID, the container and its restart count (so the same attempt always
 * has the same ID).
 */
final class Containers {

    private Containers() {
    }

    static ObjectNode running(JsonNode pod, JsonNode container, Instant startedAt, int restarts, JsonNode lastState,
                              boolean ready) {
        ObjectNode s = base(container);
        s.putObject("state").putObject("running").put("startedAt", ObjectMeta.format(startedAt));
        return finish(pod, container, s, lastState, ready, restarts, true);
    }

    static ObjectNode terminated(JsonNode pod, JsonNode container, ObjectNode terminated, int restarts,
                                 JsonNode lastState) {
        ObjectNode s = base(container);
        s.putObject("state").set("terminated", terminated);
        return finish(pod, container, s, lastState, false, restarts, false);
    }

    static ObjectNode waiting(JsonNode pod, JsonNode container, String reason, String message, int restarts,
                              JsonNode lastState) {
        ObjectNode s = base(container);
        ObjectNode w = s.putObject("state").putObject("waiting").put("reason", reason);
        if (message != null) {
            w.put("message", message);
        }
        return finish(pod, container, s, lastState, false, restarts, false);
    }

    /** A {@code state.terminated} of the container's attempt {@code restarts}. */
    static ObjectNode exit(JsonNode pod, JsonNode container, int restarts, int code, Instant startedAt,
                           Instant finishedAt) {
        ObjectNode t = Json.object();
        t.put("exitCode", code);
        t.put("reason", code == 0 ? "Completed" : "Error");
        t.put("startedAt", ObjectMeta.format(startedAt));
        t.put("finishedAt", ObjectMeta.format(finishedAt));
        t.put("containerID", containerId(pod, container, restarts));
        return t;
    }

    private static ObjectNode base(JsonNode container) {
        ObjectNode s = Json.object();
        s.put("name", container.path("name").asText());
        return s;
    }

    private static ObjectNode finish(JsonNode pod, JsonNode container, ObjectNode s, JsonNode lastState,
                                     boolean ready, int restarts, boolean started) {
        s.set("lastState", lastState == null || lastState.isMissingNode() ? Json.object() : lastState.deepCopy());
        s.put("ready", ready);
        s.put("restartCount", restarts);
        String image = image(container.path("image").asText());
        s.put("image", image);
        s.put("imageID", imageId(image));
        if (!s.path("state").has("waiting") || restarts > 0) {
            s.put("containerID", containerId(pod, container, restarts));
        }
        s.put("started", started);
        JsonNode resources = container.path("resources");
        if (resources.path("requests").size() > 0) {
            s.set("allocatedResources", resources.path("requests").deepCopy());
        }
        if (resources.size() > 0) {
            s.set("resources", resources.deepCopy());
        }
        if (container.path("volumeMounts").size() > 0) {
            var mounts = s.putArray("volumeMounts");
            for (JsonNode m : container.path("volumeMounts")) {
                ObjectNode out = mounts.addObject();
                out.put("name", m.path("name").asText());
                out.put("mountPath", m.path("mountPath").asText());
                if (m.path("readOnly").asBoolean(false)) {
                    out.put("readOnly", true);
                    out.put("recursiveReadOnly", "Disabled");
                }
            }
        }
        return s;
    }

    /** containerd's normalised reference: {@code nginx} is {@code docker.io/library/nginx:latest}. */
    static String image(String image) {
        if (image.isEmpty()) {
            return image;
        }
        int slash = image.indexOf('/');
        String first = slash < 0 ? "" : image.substring(0, slash);
        String full;
        if (slash < 0) {
            full = "docker.io/library/" + image;
        } else if (first.contains(".") || first.contains(":") || first.equals("localhost")) {
            full = image;
        } else {
            full = "docker.io/" + image;
        }
        String last = full.substring(full.lastIndexOf('/') + 1);
        return last.contains(":") || last.contains("@") ? full : full + ":latest";
    }

    /** The repository digest containerd reports as {@code imageID}. */
    static String imageId(String image) {
        if (image.contains("@")) {
            return image;
        }
        int colon = image.lastIndexOf(':');
        String repository = colon > image.lastIndexOf('/') ? image.substring(0, colon) : image;
        return repository + "@sha256:" + sha256(image);
    }

    static String containerId(JsonNode pod, JsonNode container, int attempt) {
        return "containerd://" + sha256(pod.path("metadata").path("uid").asText() + "/"
                + container.path("name").asText() + "/" + attempt);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
