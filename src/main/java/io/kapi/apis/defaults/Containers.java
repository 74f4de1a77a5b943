package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.integer;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.text;
import static io.kapi.apis.defaults.Fields.textPointer;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Defaults of one container (regular, init or ephemeral), as core/v1's {@code SetDefaults_Container},
 * {@code SetDefaults_Probe}, {@code SetDefaults_HTTPGetAction}, {@code SetDefaults_ObjectFieldSelector}
 * and the declarative defaults of ports and gRPC probes.
 */
final class Containers {

    static final String PROBE_GRPC_SERVICE = "";

    private Containers() {
    }

    static void container(ObjectNode container) {
        text(container, "imagePullPolicy", pullPolicy(text(container, "image")));
        text(container, "terminationMessagePath", "/dev/termination-log");
        text(container, "terminationMessagePolicy", "File");
        for (ObjectNode port : items(container, "ports")) {
            text(port, "protocol", "TCP");
        }
        for (ObjectNode env : items(container, "env")) {
            fieldRef(child(child(env, "valueFrom"), "fieldRef"));
        }
        ResourceLists.requirements(child(container, "resources"));
        for (String name : new String[] {"livenessProbe", "readinessProbe", "startupProbe"}) {
            probe(child(container, name));
        }
        ObjectNode lifecycle = child(container, "lifecycle");
        httpGet(child(child(lifecycle, "postStart"), "httpGet"));
        httpGet(child(child(lifecycle, "preStop"), "httpGet"));
    }

    /**
     * kube's pull policy for an image reference: {@code Always} when the tag is {@code latest} or when
     * there is neither tag nor digest (the tag is then implicitly {@code latest}), else
     * {@code IfNotPresent}; an empty reference, which kube fails to parse, gets {@code IfNotPresent}.
     */
    static String pullPolicy(String image) {
        if (image.isEmpty()) {
            return "IfNotPresent";
        }
        String reference = image;
        int at = reference.indexOf('@');
        boolean digested = at >= 0;
        if (digested) {
            reference = reference.substring(0, at);
        }
        int slash = reference.lastIndexOf('/');
        int colon = reference.lastIndexOf(':');
        String tag = colon > slash ? reference.substring(colon + 1) : "";
        if (tag.isEmpty() && !digested) {
            tag = "latest";
        }
        return tag.equals("latest") ? "Always" : "IfNotPresent";
    }

    /** An {@code ObjectFieldSelector}: apiVersion v1. */
    static void fieldRef(ObjectNode selector) {
        if (selector != null) {
            text(selector, "apiVersion", "v1");
        }
    }

    private static void probe(ObjectNode probe) {
        if (probe == null) {
            return;
        }
        integer(probe, "timeoutSeconds", 1);
        integer(probe, "periodSeconds", 10);
        integer(probe, "successThreshold", 1);
        integer(probe, "failureThreshold", 3);
        httpGet(child(probe, "httpGet"));
        ObjectNode grpc = child(probe, "grpc");
        if (grpc != null) {
            textPointer(grpc, "service", PROBE_GRPC_SERVICE);
        }
    }

    private static void httpGet(ObjectNode action) {
        if (action != null) {
            text(action, "path", "/");
            text(action, "scheme", "HTTP");
        }
    }
}
