package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.quantity.Quantity;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.validation.ObjectMetaValidator;
import io.kapi.registry.KindValidator;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * LimitRanges, IngressClasses and RuntimeClasses. ServiceAccounts have none: kube's
 * {@code ValidateServiceAccount} checks ObjectMeta only, which the registry applies to every kind.
 *
 * <ul>
 *   <li>LimitRange — {@code ValidateLimitRange} (create and update), in {@link LimitRanges};</li>
 *   <li>IngressClass — {@code ValidateIngressClass}; an update checks {@code ValidateIngressClassUpdate}'s
 *       immutable controller first;</li>
 *   <li>RuntimeClass — {@code ValidateRuntimeClass}; an update also {@code ValidateRuntimeClassUpdate}'s
 *       immutable handler, after it, as the runtimeclass strategy orders them.</li>
 * </ul>
 */
public final class ClusterKinds {

    private static final int MAX_CONTROLLER = 250;
    private static final String HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
    private static final Pattern HTTP_PATH = Pattern.compile(HTTP_PATH_FMT);
    private static final List<String> SCOPES = List.of("Cluster", "Namespace");

    public static final KindValidator LIMIT_RANGE = Rules.of(LimitRanges::validate);
    public static final KindValidator INGRESS_CLASS = new Rules(ClusterKinds::ingressClass, (o, old, e) -> {
        controllerImmutable(o, old, e);
        ingressClass(o, e);
    });
    public static final KindValidator RUNTIME_CLASS = Rules.of(ClusterKinds::runtimeClass, ClusterKinds::handlerImmutable);

    private ClusterKinds() {
    }

    private static void ingressClass(ObjectNode ic, Errs e) {
        JsonNode spec = GoValues.at(ic, "spec");
        String controller = GoValues.text(spec, "controller");
        if (controller.getBytes(StandardCharsets.UTF_8).length > MAX_CONTROLLER) {
            e.tooLong("spec.controller", MAX_CONTROLLER);
        }
        domainPrefixedPath(controller, "spec.controller", e);
        if (GoValues.has(spec, "parameters")) {
            parameters(spec.get("parameters"), "spec.parameters", e);
        }
    }

    /** apimachinery's {@code IsDomainPrefixedPath}: a DNS subdomain, {@code /}, an HTTP path. */
    private static void domainPrefixedPath(String value, String path, Errs e) {
        if (value.isEmpty()) {
            e.required(path, "");
            return;
        }
        int slash = value.indexOf('/');
        if (slash <= 0 || slash == value.length() - 1) {
            e.invalidString(path, value, "must be a domain-prefixed path (such as \"acme.io/foo\")");
            return;
        }
        String host = value.substring(0, slash);
        e.each(path, host, Identifiers.dns1123Subdomain(host));
        String rest = value.substring(slash + 1);
        if (!HTTP_PATH.matcher(rest).matches()) {
            e.invalidString(path, rest, "Invalid path (regex used for validation is '" + HTTP_PATH_FMT + "')");
        }
    }

    /** {@code validateIngressClassParametersReference}. */
    private static void parameters(JsonNode params, String path, Errs e) {
        String group = GoValues.textPointer(params, "apiGroup");
        if (group != null) {
            e.each(path + ".apiGroup", group, Identifiers.dns1123Subdomain(group));
        }
        pathSegment(params, "kind", path, e);
        pathSegment(params, "name", path, e);
        String scope = GoValues.textPointer(params, "scope");
        if (scope == null) {
            e.required(path + ".scope", "");
            return;
        }
        String namespace = GoValues.textPointer(params, "namespace");
        if (!SCOPES.contains(scope)) {
            e.notSupported(path + ".scope", GoStrings.quote(scope), SCOPES);
        } else if (scope.equals("Namespace")) {
            if (namespace == null) {
                e.required(path + ".namespace", "`parameters.scope` is set to 'Namespace'");
            } else {
                e.each(path + ".namespace", namespace, Identifiers.dns1123Label(namespace));
            }
        } else if (namespace != null) {
            e.forbidden(path + ".namespace", "`parameters.scope` is set to 'Cluster'");
        }
    }

    private static void pathSegment(JsonNode params, String field, String path, Errs e) {
        String value = GoValues.text(params, field);
        if (value.isEmpty()) {
            e.required(path + "." + field, field + " is required");
        } else {
            e.each(path + "." + field, value, Identifiers.pathSegment(value, false));
        }
    }

    private static void controllerImmutable(ObjectNode ic, ObjectNode old, Errs e) {
        String controller = GoValues.text(ic, "spec", "controller");
        if (!controller.equals(GoValues.text(old, "spec", "controller"))) {
            e.invalidString("spec.controller", controller, Errs.IMMUTABLE);
        }
    }

    private static void runtimeClass(ObjectNode rc, Errs e) {
        String handler = GoValues.text(rc, "handler");
        e.each("handler", handler, Identifiers.dns1123Label(handler));
        if (GoValues.has(rc, "overhead")) {
            overhead(GoValues.at(rc, "overhead", "podFixed"), "overhead", e);
        }
        JsonNode scheduling = GoValues.at(rc, "scheduling");
        if (GoValues.has(scheduling)) {
            if (GoValues.has(scheduling, "nodeSelector")) {
                ObjectMetaValidator.validateLabels(scheduling.get("nodeSelector"), "scheduling.nodeSelector")
                        .forEach(e::add);
            }
            tolerations(scheduling.get("tolerations"), "scheduling.tolerations", e);
        }
    }

    /** {@code ValidateContainerResourceRequirements} of limits {@code podFixed}, reported under {@code path.limits}. */
    private static void overhead(JsonNode podFixed, String path, Errs e) {
        Map<String, String> limits = new TreeMap<>();
        podFixed.properties().forEach(en -> limits.put(en.getKey(), en.getValue().asText()));
        boolean cpuOrMemory = false;
        boolean hugePages = false;
        for (var en : limits.entrySet()) {
            String name = en.getKey();
            String p = path + ".limits[" + name + "]";
            ResourceNames.container(name, p, e);
            Quantity q = Quantity.parseOrNull(en.getValue());
            if (q != null) {
                ResourceNames.quantityValue(name, q, p, e);
                ResourceNames.hugePageValue(name, q, p, e);
            }
            hugePages |= ResourceNames.isHugePages(name);
            cpuOrMemory |= name.equals("cpu") || name.equals("memory");
        }
        if (hugePages && !cpuOrMemory) {
            e.forbidden(path, "HugePages require cpu or memory");
        }
    }

    /** {@code ValidateTolerations}, then each toleration unique by key, operator, value and effect. */
    private static void tolerations(JsonNode list, String path, Errs e) {
        Tolerations.validate(list, path, e);
        List<JsonNode> items = GoValues.items(list);
        Set<List<String>> seen = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode t = items.get(i);
            List<String> key = List.of(GoValues.text(t, "key"), GoValues.text(t, "operator"),
                    GoValues.text(t, "value"), GoValues.text(t, "effect"));
            if (!seen.add(key)) {
                e.duplicate(path + "[" + i + "]", toleration(key, t));
            }
        }
    }

    /**
     * A {@code core.Toleration} as {@code %#v} prints it. Go prints a set tolerationSeconds as the pointer's
     * address, which no other process can reproduce; a fixed address stands in for it.
     */
    private static String toleration(List<String> fields, JsonNode t) {
        String seconds = GoValues.has(t, "tolerationSeconds") ? "(*int64)(0xc000000000)" : "(*int64)(nil)";
        return "core.Toleration{Key:" + GoStrings.quote(fields.get(0)) + ", Operator:" + GoStrings.quote(fields.get(1))
                + ", Value:" + GoStrings.quote(fields.get(2)) + ", Effect:" + GoStrings.quote(fields.get(3))
                + ", TolerationSeconds:" + seconds + "}";
    }

    private static void handlerImmutable(ObjectNode rc, ObjectNode old, Errs e) {
        String handler = GoValues.text(rc, "handler");
        if (!handler.equals(GoValues.text(old, "handler"))) {
            e.invalidString("handler", handler, Errs.IMMUTABLE);
        }
    }
}
