package io.kapi.machinery.apply;

import io.kapi.machinery.GoJson;
import io.kapi.machinery.GoStrings;

/**
 * Who owns a field set: kube's manager identifier. Appliers are one entry per manager and
 * subresource whatever the version they apply; updaters one per manager, subresource and version.
 *
 * @param apiVersion the version for updaters, null for appliers
 * @param subresource "" for the main resource
 */
record ManagerKey(String manager, Operation operation, String apiVersion, String subresource) {

    /** The two operations of managedFields entries. */
    enum Operation {
        APPLY("Apply"), UPDATE("Update");

        private final String wire;

        Operation(String wire) {
            this.wire = wire;
        }

        String wire() {
            return wire;
        }

        static Operation fromWire(String s) {
            return switch (s) {
                case "Apply" -> APPLY;
                case "Update" -> UPDATE;
                default -> null;
            };
        }
    }

    ManagerKey {
        subresource = subresource == null ? "" : subresource;
        if (operation == Operation.APPLY) {
            apiVersion = null;
        }
    }

    static ManagerKey applier(String manager, String subresource) {
        return new ManagerKey(manager, Operation.APPLY, null, subresource);
    }

    static ManagerKey updater(String manager, String apiVersion, String subresource) {
        return new ManagerKey(manager, Operation.UPDATE, apiVersion, subresource);
    }

    boolean applied() {
        return operation == Operation.APPLY;
    }

    /** The identifier as kube encodes it (a ManagedFieldsEntry in JSON); sorts conflict messages. */
    String identifier() {
        StringBuilder b = new StringBuilder("{\"manager\":");
        GoJson.appendString(b, manager);
        b.append(",\"operation\":\"").append(operation.wire()).append('"');
        if (apiVersion != null && !apiVersion.isEmpty()) {
            b.append(",\"apiVersion\":");
            GoJson.appendString(b, apiVersion);
        }
        if (!subresource.isEmpty()) {
            b.append(",\"subresource\":");
            GoJson.appendString(b, subresource);
        }
        return b.append('}').toString();
    }

    /** The manager as conflict messages name it: {@code "kubectl" using apps/v1}. */
    String printed() {
        String s = GoStrings.quote(manager);
        if (!subresource.isEmpty()) {
            s += " with subresource " + GoStrings.quote(subresource);
        }
        if (operation == Operation.UPDATE) {
            s += " using " + (apiVersion == null ? "" : apiVersion);
        }
        return s;
    }
}
