package io.kapi.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.kapi.apiextensions.Crd;
import java.util.List;

/**
 * Where kube-apiserver reports errors of a v1 CRD's per-version parts. It validates the internal version,
 * into which the conversion from v1 moves a version's {@code schema}, {@code subresources},
 * {@code additionalPrinterColumns} and {@code selectableFields} to the top of the spec when every version
 * has the same (always, with one version): errors then name {@code spec.validation.openAPIV3Schema},
 * {@code spec.subresources}, {@code spec.additionalPrinterColumns} and {@code spec.selectableFields}, else
 * {@code spec.versions[i].schema.openAPIV3Schema} and so on.
 */
record Hoisting(boolean schema, boolean subresources, boolean columns, boolean selectable) {

    static Hoisting of(Crd crd) {
        List<Crd.Version> versions = crd.versions();
        return new Hoisting(same(versions, "schema"), same(versions, "subresources"),
                same(versions, "additionalPrinterColumns"), same(versions, "selectableFields"));
    }

    private static boolean same(List<Crd.Version> versions, String field) {
        if (versions.isEmpty()) {
            return false;
        }
        JsonNode first = value(versions.getFirst(), field);
        return versions.stream().allMatch(v -> value(v, field).equals(first));
    }

    private static JsonNode value(Crd.Version v, String field) {
        JsonNode n = v.node().get(field);
        boolean empty = n == null || n.isNull() || (n.isArray() && n.isEmpty());
        return empty ? MissingNode.getInstance() : n;
    }

    /** Whether the hoisted part exists at all (every version has it). */
    static boolean present(Crd crd, String field) {
        List<Crd.Version> versions = crd.versions();
        return !versions.isEmpty() && !value(versions.getFirst(), field).isMissingNode();
    }
}
