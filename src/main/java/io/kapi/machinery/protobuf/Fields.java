package io.kapi.machinery.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.ArrayList;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How the fields of one message appear in JSON.
 *
 * <p>A proto field is named after the Go field's JSON name, with three kinds of exceptions:
 * <ul>
 *   <li>embedded structs that JSON inlines ({@code Volume.volumeSource}, {@code Probe.handler}, ...): their
 *       fields appear directly in the parent object;</li>
 *   <li>names the proto generator spelled from the Go field name ({@code Webhooks}, {@code uID},
 *       {@code aPIGroup}, ...);</li>
 *   <li>JSON names that are not proto identifiers: {@code $ref}, {@code $schema} and the
 *       {@code x-kubernetes-*} fields of {@code JSONSchemaProps}.</li>
 * </ul>
 *
 * @param all the fields in number order, each with its JSON name ({@code null} when inlined)
 */
record Fields(List<Field> all) {

    /** A proto field and its JSON name; {@code jsonName} is null for an inlined message. */
    record Field(FieldDescriptor descriptor, String jsonName) {
        boolean inline() {
            return jsonName == null;
        }
    }

    /** Fields whose message JSON inlines, by {@code Message.field}. */
    private static final Set<String> INLINE = Set.of(
            "ConfigMapEnvSource.localObjectReference", "ConfigMapKeySelector.localObjectReference",
            "ConfigMapProjection.localObjectReference", "ConfigMapVolumeSource.localObjectReference",
            "SecretEnvSource.localObjectReference", "SecretKeySelector.localObjectReference",
            "SecretProjection.localObjectReference", "EphemeralContainer.ephemeralContainerCommon",
            "PersistentVolumeSpec.persistentVolumeSource", "Probe.handler", "Volume.volumeSource",
            "VolumeMountStatus.volumeStatus", "IngressRule.ingressRuleValue",
            "NamedRuleWithOperations.ruleWithOperations", "RuleWithOperations.rule",
            "DeviceAllocationConfiguration.deviceConfiguration", "DeviceClaimConfiguration.deviceConfiguration",
            "DeviceClassConfiguration.deviceConfiguration");

    /**
     * Proto names spelled from the Go field name, where the JSON name differs. ({@code DaemonEndpoint.Port}
     * is capitalised in JSON too.)
     */
    private static final Map<String, String> RENAMED = Map.of(
            "uID", "uid",
            "aPIGroup", "apiGroup",
            "Webhooks", "webhooks",
            "Expression", "expression",
            "Name", "name");

    private static final String JSON_SCHEMA_PROPS = "JSONSchemaProps";

    private static final Map<Descriptor, Fields> CACHE = new ConcurrentHashMap<>();

    static Fields of(Descriptor message) {
        return CACHE.computeIfAbsent(message, Fields::build);
    }

    private static Fields build(Descriptor message) {
        List<Field> all = new ArrayList<>();
        for (FieldDescriptor fd : message.getFields()) {
            if (INLINE.contains(message.getName() + "." + fd.getName())
                    && fd.getType() == FieldDescriptor.Type.MESSAGE) {
                all.add(new Field(fd, null));
            } else {
                all.add(new Field(fd, jsonName(message, fd)));
            }
        }
        return new Fields(List.copyOf(all));
    }

    private static String jsonName(Descriptor message, FieldDescriptor fd) {
        String name = fd.getName();
        if (message.getName().equals(JSON_SCHEMA_PROPS)) {
            if (name.equals("ref") || name.equals("schema")) {
                return "$" + name;
            }
            if (name.startsWith("xKubernetes")) {
                return "x-kubernetes" + name.substring("xKubernetes".length()).replaceAll("([A-Z])", "-$1")
                        .toLowerCase(Locale.ROOT);
            }
        }
        return RENAMED.getOrDefault(name, name);
    }
}
