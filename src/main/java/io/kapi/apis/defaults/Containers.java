package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.integer;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.text;
import static io.kapi.apis.defaults.Fields.textPointer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

/**
 * Defaults of one container (regular, init or ephemeral), as core/v1's {@code SetDefaults_Container},
 * {@code SetDefaults_Probe}, {@code SetDefaults_HTTPGetAction}, {@code SetDefaults_ObjectFieldSelector}
 * and the declarative defaults of ports and gRPC probes.
 */
final class Containers {

    static final String PROBE_GRPC_SERVICE = "";

    private static final String DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
    private static final String PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";

    /** The grammar of container image references (distribution's reference package). */
    private static final Pattern IMAGE_REFERENCE = Pattern.compile(
            "(?:(?:" + DOMAIN_COMPONENT + "(?:\\." + DOMAIN_COMPONENT + ")*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?/)?"
            + PATH_COMPONENT + "(?:/" + PATH_COMPONENT + ")*"
            + "(?::(?<tag>\\w[\\w.-]{0,127}))?"
            + "(?:@(?<digest>[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?");

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
     * {@code IfNotPresent}; a reference kube fails to parse (e.g. an upper-case repository or a short
     * digest) gets {@code IfNotPresent}, as kube ignores the parse error.
     */
    static String pullPolicy(String image) {
        Matcher m = IMAGE_REFERENCE.matcher(image);
        if (!m.matches()) {
            return "IfNotPresent";
        }
        String tag = m.group("tag");
        if (tag == null && m.group("digest") == null) {
            tag = "latest";
        }
        return "latest".equals(tag) ? "Always" : "IfNotPresent";
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
