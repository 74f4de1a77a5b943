package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One container of a pod spec: kube's {@code validateContainerCommon}, probes, lifecycle and host ports. */
final class Containers {

    private static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    private static final List<String> MESSAGE_POLICIES = List.of("File", "FallbackToLogsOnError");
    private static final List<String> SCHEMES = List.of("HTTP", "HTTPS");

    private Containers() {
    }

    static void common(JsonNode c, Set<String> volumes, String path, Errs e) {
        String name = GoValues.text(c, "name");
        if (name.isEmpty()) {
            e.required(path + ".name", "");
        } else {
            e.each(path + ".name", name, Identifiers.dns1123Label(name));
        }
        if (GoValues.text(c, "image").isEmpty()) {
            e.required(path + ".image", "");
        }
        String policy = GoValues.text(c, "terminationMessagePolicy");
        if (!policy.isEmpty() && !MESSAGE_POLICIES.contains(policy)) {
            e.notSupported(path + ".terminationMessagePolicy", GoStrings.quote(policy), MESSAGE_POLICIES);
        }
        ports(GoValues.items(c.get("ports")), path + ".ports", e);
        env(GoValues.items(c.get("env")), path + ".env", e);
        envFrom(GoValues.items(c.get("envFrom")), path + ".envFrom", e);
        volumeMounts(GoValues.items(c.get("volumeMounts")), volumes, path + ".volumeMounts", e);
        String pull = GoValues.text(c, "imagePullPolicy");
        if (!pull.isEmpty() && !PULL_POLICIES.contains(pull)) {
            e.notSupported(path + ".imagePullPolicy", GoStrings.quote(pull), PULL_POLICIES);
        }
        Resources.validate(GoValues.at(c, "resources"), path + ".resources", e);
    }

    private static void ports(List<JsonNode> ports, String path, Errs e) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode port = ports.get(i);
            String p = path + "[" + i + "]";
            String name = GoValues.text(port, "name");
            if (!name.isEmpty()) {
                List<String> msgs = Names.portName(name);
                if (!msgs.isEmpty()) {
                    e.each(p + ".name", name, msgs);
                } else if (!names.add(name)) {
                    e.duplicate(p + ".name", GoStrings.quote(name));
                }
            }
            long cp = GoValues.at(port, "containerPort").asLong(0);
            if (cp == 0) {
                e.required(p + ".containerPort", "");
            } else if (!Names.validPort(cp)) {
                e.invalid(p + ".containerPort", Long.toString(cp), Names.PORT_RANGE);
            }
            long hp = GoValues.at(port, "hostPort").asLong(0);
            if (hp != 0 && !Names.validPort(hp)) {
                e.invalid(p + ".hostPort", Long.toString(hp), Names.PORT_RANGE);
            }
            String protocol = GoValues.text(port, "protocol");
            if (GoValues.has(port, "protocol") && !PodSpecs.PROTOCOLS.contains(protocol)) {
                if (protocol.isEmpty()) {
                    e.required(p + ".protocol", "");
                } else {
                    e.notSupported(p + ".protocol", GoStrings.quote(protocol), PodSpecs.PROTOCOLS);
                }
            }
        }
    }

    private static void env(List<JsonNode> vars, String path, Errs e) {
        for (int i = 0; i < vars.size(); i++) {
            JsonNode v = vars.get(i);
            String p = path + "[" + i + "]";
            String name = GoValues.text(v, "name");
            if (name.isEmpty()) {
                e.required(p + ".name", "");
            } else {
                e.each(p + ".name", name, Names.envVarName(name));
            }
            JsonNode from = v.get("valueFrom");
            if (from == null || from.isNull()) {
                continue;
            }
            String fp = p + ".valueFrom";
            int sources = 0;
            for (String s : List.of("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef")) {
                if (GoValues.has(from, s)) {
                    sources++;
                }
            }
            for (String s : List.of("configMapKeyRef", "secretKeyRef")) {
                if (GoValues.has(from, s)) {
                    String key = GoValues.text(from.get(s), "key");
                    if (key.isEmpty()) {
                        e.required(fp + "." + s + ".key", "");
                    } else {
                        e.each(fp + "." + s + ".key", key, Names.configMapKey(key));
                    }
                }
            }
            if (GoValues.has(from, "fieldRef")) {
                JsonNode ref = from.get("fieldRef");
                if (GoValues.text(ref, "fieldPath").isEmpty()) {
                    e.required(fp + ".fieldRef.fieldPath", "");
                }
            }
            if (sources == 0) {
                e.invalidString(fp, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` "
                        + "or `secretKeyRef`");
            } else if (!GoValues.text(v, "value").isEmpty()) {
                e.invalidString(fp, "", "may not be specified when `value` is not empty");
            } else if (sources > 1) {
                e.invalidString(fp, "", "may not have more than one field specified at a time");
            }
        }
    }

    private static void envFrom(List<JsonNode> sources, String path, Errs e) {
        for (int i = 0; i < sources.size(); i++) {
            JsonNode s = sources.get(i);
            String p = path + "[" + i + "]";
            String prefix = GoValues.text(s, "prefix");
            if (!prefix.isEmpty()) {
                e.each(p + ".prefix", prefix, Names.envVarName(prefix));
            }
            int n = 0;
            for (String ref : List.of("configMapRef", "secretRef")) {
                if (GoValues.has(s, ref)) {
                    n++;
                    String name = GoValues.text(s.get(ref), "name");
                    if (name.isEmpty()) {
                        e.required(p + "." + ref + ".name", "");
                    } else {
                        e.each(p + "." + ref + ".name", name, Identifiers.dns1123Subdomain(name));
                    }
                }
            }
            if (n == 0) {
                e.invalidString(path, "", "must specify one of: `configMapRef` or `secretRef`");
            } else if (n > 1) {
                e.invalidString(path, "", "may not have more than one field specified at a time");
            }
        }
    }

    private static void volumeMounts(List<JsonNode> mounts, Set<String> volumes, String path, Errs e) {
        Set<String> points = new HashSet<>();
        for (int i = 0; i < mounts.size(); i++) {
            JsonNode m = mounts.get(i);
            String p = path + "[" + i + "]";
            String name = GoValues.text(m, "name");
            if (name.isEmpty()) {
                e.required(p + ".name", "");
            }
            if (!volumes.contains(name)) {
                e.notFound(p + ".name", GoStrings.quote(name));
            }
            String mountPath = GoValues.text(m, "mountPath");
            if (mountPath.isEmpty()) {
                e.required(p + ".mountPath", "");
            }
            if (!points.add(mountPath)) {
                e.invalidString(p + ".mountPath", mountPath, "must be unique");
            }
            String sub = GoValues.text(m, "subPath");
            if (!sub.isEmpty()) {
                localDescendingPath(sub, path + ".subPath", e);
            }
        }
    }

    private static void localDescendingPath(String value, String path, Errs e) {
        if (value.startsWith("/")) {
            e.invalidString(path, value, "must be a relative path");
        }
        for (String part : value.split("/")) {
            if (part.equals("..")) {
                e.invalidString(path, value, "must not contain '..'");
                break;
            }
        }
    }

    static void lifecycleAndProbes(JsonNode c, String path, Errs e) {
        JsonNode lifecycle = c.get("lifecycle");
        if (lifecycle != null && lifecycle.isObject()) {
            for (String hook : List.of("postStart", "preStop")) {
                if (GoValues.has(lifecycle, hook)) {
                    handler(lifecycle.get(hook), path + ".lifecycle." + hook, true, e);
                }
            }
        }
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            JsonNode pr = c.get(probe);
            if (pr == null || !pr.isObject()) {
                continue;
            }
            String p = path + "." + probe;
            handler(pr, p, false, e);
            for (String f : List.of("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold",
                    "failureThreshold")) {
                e.nonNegative(pr, f, p + "." + f);
            }
            JsonNode grace = pr.get("terminationGracePeriodSeconds");
            if (grace != null && grace.isNumber() && grace.asLong() <= 0) {
                e.invalid(p + ".terminationGracePeriodSeconds", grace.asText(), "must be greater than 0");
            }
            JsonNode success = pr.get("successThreshold");
            if (!probe.equals("readinessProbe") && success != null && success.isNumber() && success.asLong() != 1) {
                e.invalid(p + ".successThreshold", success.asText(), "must be 1");
            }
            if (probe.equals("readinessProbe") && grace != null && !grace.isNull()) {
                e.invalid(p + ".terminationGracePeriodSeconds", grace.asText(), "must not be set for readinessProbes");
            }
        }
    }

    private static void handler(JsonNode h, String path, boolean lifecycle, Errs e) {
        List<String> kinds = lifecycle ? List.of("exec", "httpGet", "tcpSocket", "sleep")
                : List.of("exec", "httpGet", "tcpSocket", "grpc");
        int n = 0;
        for (String k : kinds) {
            if (!GoValues.has(h, k)) {
                continue;
            }
            if (n > 0) {
                e.forbidden(path + "." + k, "may not specify more than 1 handler type");
                continue;
            }
            n++;
            JsonNode a = h.get(k);
            String p = path + "." + k;
            switch (k) {
                case "exec" -> {
                    if (GoValues.at(a, "command").isEmpty()) {
                        e.required(p + ".command", "");
                    }
                }
                case "httpGet" -> {
                    portNumOrName(a.get("port"), p + ".port", e);
                    String scheme = GoValues.text(a, "scheme");
                    if (!scheme.isEmpty() && !SCHEMES.contains(scheme)) {
                        e.notSupported(p + ".scheme", GoStrings.quote(scheme), SCHEMES);
                    }
                }
                case "tcpSocket", "grpc" -> portNumOrName(a.get("port"), p + ".port", e);
                default -> { }
            }
        }
        if (n == 0) {
            e.required(path, "must specify a handler type");
        }
    }

    /** {@code ValidatePortNumOrName} of an IntOrString. */
    static void portNumOrName(JsonNode port, String path, Errs e) {
        if (port == null || port.isNull()) {
            e.invalid(path, "0", Names.PORT_RANGE);
        } else if (port.isNumber()) {
            if (!Names.validPort(port.asLong())) {
                e.invalid(path, port.asText(), Names.PORT_RANGE);
            }
        } else {
            e.each(path, port.asText(), Names.portName(port.asText()));
        }
    }

    /** {@code checkHostPortConflicts}: the same protocol/hostIP/hostPort twice is a Duplicate. */
    static void hostPortConflicts(List<JsonNode> containers, String path, Errs e) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < containers.size(); i++) {
            List<JsonNode> ports = GoValues.items(containers.get(i).get("ports"));
            for (int j = 0; j < ports.size(); j++) {
                JsonNode port = ports.get(j);
                long hp = GoValues.at(port, "hostPort").asLong(0);
                if (hp == 0) {
                    continue;
                }
                String protocol = GoValues.text(port, "protocol").isEmpty() ? "TCP" : GoValues.text(port, "protocol");
                String key = protocol + "/" + GoValues.text(port, "hostIP") + "/" + hp;
                if (!seen.add(key)) {
                    e.duplicate(path + "[" + i + "].ports[" + j + "].hostPort", GoStrings.quote(key));
                }
            }
        }
    }
}
