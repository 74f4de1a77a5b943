package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;

/**
 * kube-apiserver's default-on {@code DefaultIngressClass}: a new Ingress with neither
 * {@code spec.ingressClassName} nor the {@code kubernetes.io/ingress.class} annotation gets the default
 * IngressClass ({@code ingressclass.kubernetes.io/is-default-class: "true"}), when there is one.
 */
public record DefaultIngressClass(ObjectLookup lookup) implements MutatingPlugin {

    static final GroupVersionResource INGRESS_CLASSES =
            new GroupVersionResource("networking.k8s.io", "v1", "ingressclasses");
    private static final List<String> DEFAULT_ANNOTATIONS = List.of("ingressclass.kubernetes.io/is-default-class");

    @Override
    public String name() {
        return "DefaultIngressClass";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(Attributes a) {
        if (!a.isMain("networking.k8s.io", "ingresses") || a.object() == null) {
            return;
        }
        ObjectNode ingress = a.object();
        if (ingress.path("spec").hasNonNull("ingressClassName")
                || ingress.path("metadata").path("annotations").has("kubernetes.io/ingress.class")) {
            return;
        }
        DefaultClasses.newest(lookup.list(INGRESS_CLASSES, ""), DEFAULT_ANNOTATIONS).ifPresent(name ->
                (ingress.get("spec") instanceof ObjectNode s ? s : ingress.putObject("spec")).put("ingressClassName", name));
    }
}
