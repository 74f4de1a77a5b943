package io.kapi.apis.validation;

import static io.kapi.apis.validation.ClusterKindsValidationTest.QUALIFIED;
import static io.kapi.apis.validation.ClusterKindsValidationTest.SUBDOMAIN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** CSIDrivers, CSINodes, CSIStorageCapacities, VolumeAttachments, VolumeAttributesClasses (after kube's validation_test.go). */
class StorageKindsValidationTest {

    static final String CSI_DRIVER = """
            apiVersion: storage.k8s.io/v1
            kind: CSIDriver
            metadata: {name: io.kubernetes.storage.csi.driver}
            spec:
              attachRequired: true
              podInfoOnMount: false
              storageCapacity: false
              fsGroupPolicy: ReadWriteOnceWithFSType
              volumeLifecycleModes: [Persistent, Ephemeral]
              tokenRequests: [{audience: gcp}, {audience: aws, expirationSeconds: 3600}]
              requiresRepublish: false
              seLinuxMount: false
            """;

    static final String CSI_NODE = """
            apiVersion: storage.k8s.io/v1
            kind: CSINode
            metadata: {name: node-1}
            spec:
              drivers:
              - name: io.kubernetes.storage.csi.driver
                nodeID: nodeA
                topologyKeys: [company.com/zone1, company.com/zone2]
                allocatable: {count: 4}
            """;

    static final String CAPACITY = """
            apiVersion: storage.k8s.io/v1
            kind: CSIStorageCapacity
            metadata: {name: csc-1, namespace: default}
            storageClassName: fast
            nodeTopology: {matchLabels: {topology.kubernetes.io/zone: a}}
            capacity: 10Gi
            maximumVolumeSize: 1Gi
            """;

    static final String ATTACHMENT = """
            apiVersion: storage.k8s.io/v1
            kind: VolumeAttachment
            metadata: {name: va-1}
            spec:
              attacher: io.kubernetes.storage.csi.driver
              nodeName: node-1
              source: {persistentVolumeName: pv-1}
            """;

    static final String ATTRIBUTES_CLASS = """
            apiVersion: storage.k8s.io/v1
            kind: VolumeAttributesClass
            metadata: {name: gold}
            driverName: kubernetes.io/foo-driver
            parameters: {iops: "5000"}
            """;

    static final String DRIVER_NAME = "a lowercase RFC 1123 subdomain";

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is checked with kube's field paths and messages")
    @MethodSource("creates")
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    static Stream<Arguments> creates() {
        return Stream.of(csiDrivers(), csiNodes(), capacities(), attachments(), attributesClasses()).flatMap(s -> s);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("an update is checked with kube's immutability rules")
    @MethodSource("updates")
    void updates(String name, String yaml, String old, List<String> expected) {
        assertEquals(expected, Fixtures.update(yaml, old));
    }

    private static Stream<Arguments> csiDrivers() {
        return Stream.of(
                Arguments.of("csi driver: a valid one passes", CSI_DRIVER, List.of()),
                Arguments.of("csi driver: the defaulted booleans are required",
                        CSI_DRIVER.replaceAll("(?m)^  (attachRequired|podInfoOnMount|storageCapacity|seLinuxMount).*\n", ""),
                        List.of("spec.attachedRequired: Required value", "spec.podInfoOnMount: Required value",
                                "spec.storageCapacity: Required value", "spec.seLinuxMount: Required value")),
                Arguments.of("csi driver: unknown fsGroupPolicy", CSI_DRIVER.replace("ReadWriteOnceWithFSType", "Sometimes"),
                        List.of("spec.fsGroupPolicy: Unsupported value: \"Sometimes\": supported values: \"File\", "
                                + "\"None\", \"ReadWriteOnceWithFSType\"")),
                Arguments.of("csi driver: unknown lifecycle mode", CSI_DRIVER.replace("[Persistent, Ephemeral]", "[Persistent, Forever]"),
                        List.of("spec.volumeLifecycleModes: Unsupported value: \"Forever\": supported values: "
                                + "\"Persistent\", \"Ephemeral\"")),
                Arguments.of("csi driver: token requests",
                        CSI_DRIVER.replace("[{audience: gcp}, {audience: aws, expirationSeconds: 3600}]",
                                "[{audience: gcp, expirationSeconds: 599}, {audience: gcp, expirationSeconds: 1},"
                                        + " {audience: aws, expirationSeconds: 4294967297}]"),
                        List.of("spec.tokenRequests[0].expirationSeconds: Invalid value: 599: may not specify a "
                                        + "duration less than 10 minutes",
                                "spec.tokenRequests[1].audience: Duplicate value: \"gcp\"",
                                "spec.tokenRequests[2].expirationSeconds: Invalid value: 4294967297: may not specify a "
                                        + "duration larger than 2^32 seconds")));
    }

    private static Stream<Arguments> csiNodes() {
        String p = "spec.drivers[0]";
        return Stream.of(
                Arguments.of("csi node: a valid one passes", CSI_NODE, List.of()),
                Arguments.of("csi node: no drivers pass", CSI_NODE.replaceAll("(?s)  drivers:.*", "  drivers: []\n"), List.of()),
                Arguments.of("csi node: a node ID of 256 bytes passes", CSI_NODE.replace("nodeA", "a".repeat(256)), List.of()),
                Arguments.of("csi node: a node ID of 257 bytes", CSI_NODE.replace("nodeA", "a".repeat(257)),
                        List.of(p + ".nodeID: Invalid value: \"" + "a".repeat(257) + "\": must be 256 characters or less")),
                Arguments.of("csi node: an empty node ID", CSI_NODE.replace("nodeA", "\"\""),
                        List.of(p + ".nodeID: Required value")),
                Arguments.of("csi node: a bad driver name", CSI_NODE.replace("io.kubernetes.storage.csi.driver", "$csi"),
                        List.of(p + ".name: Invalid value: \"$csi\": " + SUBDOMAIN)),
                Arguments.of("csi node: a driver name too long", CSI_NODE.replace("io.kubernetes.storage.csi.driver", "a".repeat(64)),
                        List.of(p + ".name: Too long: must have at most 63 bytes")),
                Arguments.of("csi node: an empty driver name", CSI_NODE.replace("io.kubernetes.storage.csi.driver", "\"\""),
                        List.of(p + ".name: Required value", p + ".name: Invalid value: \"\": " + SUBDOMAIN)),
                Arguments.of("csi node: a negative allocatable count", CSI_NODE.replace("count: 4", "count: -1"),
                        List.of(p + ".allocatable.count: Invalid value: -1: must be greater than or equal to 0")),
                Arguments.of("csi node: a driver twice", CSI_NODE + "  - {name: io.kubernetes.storage.csi.driver, nodeID: nodeB}\n",
                        List.of("spec.drivers[1].name: Duplicate value: \"io.kubernetes.storage.csi.driver\"")),
                Arguments.of("csi node: topology keys",
                        CSI_NODE.replace("[company.com/zone1, company.com/zone2]", "[company.com/zone1, company.com/zone1, \"\", \"-zone\"]"),
                        List.of(p + ": Duplicate value: \"company.com/zone1\"", p + ": Required value",
                                p + ": Invalid value: \"\": name part must be non-empty",
                                p + ": Invalid value: \"\": " + QUALIFIED,
                                p + ": Invalid value: \"-zone\": " + QUALIFIED)));
    }

    private static Stream<Arguments> capacities() {
        return Stream.of(
                Arguments.of("capacity: a valid one passes", CAPACITY, List.of()),
                Arguments.of("capacity: no topology, no capacity pass",
                        CAPACITY.replaceAll("(?m)^(nodeTopology|capacity).*\n", ""), List.of()),
                Arguments.of("capacity: a bad class name", CAPACITY.replace("storageClassName: fast", "storageClassName: Fast"),
                        List.of("storageClassName: Invalid value: \"Fast\": " + SUBDOMAIN)),
                Arguments.of("capacity: a missing class name", CAPACITY.replace("storageClassName: fast\n", ""),
                        List.of("storageClassName: Invalid value: \"\": " + SUBDOMAIN)),
                Arguments.of("capacity: a negative capacity", CAPACITY.replace("10Gi", "-1000m"),
                        List.of("capacity: Invalid value: \"-1\": must be greater than or equal to 0")),
                Arguments.of("capacity: a bad selector",
                        CAPACITY.replace("{matchLabels: {topology.kubernetes.io/zone: a}}",
                                "{matchExpressions: [{key: zone, operator: In, values: [\"-a\"]}]}"),
                        List.of("nodeTopology.matchExpressions[0].values[0]: Invalid value: \"-a\": a valid label must "
                                + "be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
                                + "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
                                + "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")));
    }

    private static Stream<Arguments> attachments() {
        String inline = ATTACHMENT.replace("{persistentVolumeName: pv-1}",
                "\n    inlineVolumeSpec: {accessModes: [ReadWriteOnce], csi: {driver: com.test.foo, volumeHandle: foobar}}");
        return Stream.of(
                Arguments.of("attachment: a valid one passes", ATTACHMENT, List.of()),
                Arguments.of("attachment: an inline spec passes", inline, List.of()),
                Arguments.of("attachment: no attacher", ATTACHMENT.replace("attacher: io.kubernetes.storage.csi.driver", "attacher: \"\""),
                        List.of("spec.attacher: Required value", "spec.attacher: Invalid value: \"\": " + SUBDOMAIN)),
                Arguments.of("attachment: a bad attacher", ATTACHMENT.replace("io.kubernetes.storage.csi.driver", "invalid-@#$%^&*()"),
                        List.of("spec.attacher: Invalid value: \"invalid-@#$%^&*()\": " + SUBDOMAIN)),
                Arguments.of("attachment: a bad node name", ATTACHMENT.replace("node-1", "Node_1"),
                        List.of("spec.nodeName: Invalid value: \"Node_1\": " + SUBDOMAIN)),
                Arguments.of("attachment: no source", ATTACHMENT.replace("{persistentVolumeName: pv-1}", "{}"),
                        List.of("spec.source: Required value: " + VolumeAttachments.ONE_SOURCE)),
                Arguments.of("attachment: both sources",
                        inline.replace("inlineVolumeSpec:", "persistentVolumeName: pv-1\n    inlineVolumeSpec:"),
                        List.of("spec.source: Forbidden: " + VolumeAttachments.ONE_SOURCE)),
                Arguments.of("attachment: an empty PV name", ATTACHMENT.replace("pv-1", "\"\""),
                        List.of("spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName",
                                "spec.source.persistentVolumeName: Invalid value: \"\": " + SUBDOMAIN)),
                Arguments.of("attachment: a bad PV name", ATTACHMENT.replace("pv-1", "-invalid-@#$%^&*()-"),
                        List.of("spec.source.persistentVolumeName: Invalid value: \"-invalid-@#$%^&*()-\": " + SUBDOMAIN)),
                Arguments.of("attachment: an inline spec that is not one",
                        inline.replace("{accessModes: [ReadWriteOnce], csi: {driver: com.test.foo, volumeHandle: foobar}}",
                                "{capacity: {storage: 1Gi}, claimRef: {name: c}, nfs: {server: s, path: /}}"),
                        List.of("spec.source.inlineVolumeSpec.claimRef: Forbidden: may not be specified in the context of inline volumes",
                                "spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes",
                                "spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes",
                                "spec.source.inlineVolumeSpec.accessModes: Required value")),
                Arguments.of("attachment: status limits",
                        ATTACHMENT + "status:\n  attached: false\n  attachmentMetadata: {k: \"" + "x".repeat(256 * 1024) + "\"}\n"
                                + "  attachError: {message: \"" + "e".repeat(1025) + "\"}\n"
                                + "  detachError: {message: \"" + "e".repeat(1024) + "\"}\n",
                        List.of("status.attachmentMetadata: Too long: must have at most 262144 bytes",
                                "status.attachError.message: Too long: must have at most 262144 bytes")));
    }

    private static Stream<Arguments> attributesClasses() {
        return Stream.of(
                Arguments.of("attributes class: a valid one passes", ATTRIBUTES_CLASS, List.of()),
                Arguments.of("attributes class: no driver, no parameters",
                        ATTRIBUTES_CLASS.replaceAll("(?m)^(driverName|parameters).*\n", ""),
                        List.of("driverName: Required value", "parameters: Required value: must contain at least one key/value pair")),
                Arguments.of("attributes class: a bad driver name is reported lower-cased",
                        ATTRIBUTES_CLASS.replace("kubernetes.io/foo-driver", "Kubernetes.io/-Foo"),
                        List.of("driverName: Invalid value: \"kubernetes.io/-foo\": " + QUALIFIED)),
                Arguments.of("attributes class: an empty parameter key",
                        ATTRIBUTES_CLASS.replace("{iops: \"5000\"}", "{\"\": \"5000\"}"),
                        List.of("parameters: Invalid value: \"\": field can not be empty.")));
    }

    static Stream<Arguments> updates() {
        String va = "storage.VolumeAttachmentSpec{Attacher:\"io.kubernetes.storage.csi.driver\", Source:storage."
                + "VolumeAttachmentSource{PersistentVolumeName:(*string)(0xc000000000), InlineVolumeSpec:"
                + "(*core.PersistentVolumeSpec)(nil)}, NodeName:\"node-2\"}";
        return Stream.of(
                Arguments.of("csi driver: mutable fields may change",
                        CSI_DRIVER.replace("podInfoOnMount: false", "podInfoOnMount: true")
                                .replace("storageCapacity: false", "storageCapacity: true")
                                .replace("requiresRepublish: false", "requiresRepublish: true"),
                        CSI_DRIVER, List.of()),
                Arguments.of("csi driver: attachRequired and lifecycle modes are immutable",
                        CSI_DRIVER.replace("attachRequired: true", "attachRequired: false").replace("[Persistent, Ephemeral]", "[Persistent]"),
                        CSI_DRIVER,
                        List.of("spec.attachedRequired: Invalid value: false: field is immutable",
                                "spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{\"Persistent\"}: "
                                        + "field is immutable")),
                Arguments.of("csi node: drivers may be added and removed",
                        CSI_NODE.replaceAll("(?s)  drivers:.*", "  drivers:\n  - {name: other.driver, nodeID: n}\n"),
                        CSI_NODE, List.of()),
                Arguments.of("csi node: a kept driver may not change",
                        CSI_NODE.replace("nodeA", "nodeB").replace("count: 4", "count: -1"), CSI_NODE,
                        List.of("spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0",
                                "spec.drivers: Invalid value: storage.CSINodeDriver{Name:\"io.kubernetes.storage.csi.driver\", "
                                        + "NodeID:\"nodeB\", TopologyKeys:[]string{\"company.com/zone1\", \"company.com/zone2\"}, "
                                        + "Allocatable:(*storage.VolumeNodeResources)(0xc000000000)}: field is immutable")),
                Arguments.of("capacity: capacity may change", CAPACITY.replace("10Gi", "5Gi"), CAPACITY, List.of()),
                Arguments.of("capacity: class and topology are immutable",
                        CAPACITY.replace("fast", "slow").replace("zone: a", "zone: b"), CAPACITY,
                        List.of("nodeTopology: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"
                                        + "\"topology.kubernetes.io/zone\":\"b\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: "
                                        + "field is immutable",
                                "storageClassName: Invalid value: \"slow\": field is immutable")),
                Arguments.of("capacity: an invalid selector value already stored is kept",
                        CAPACITY.replace("{matchLabels: {topology.kubernetes.io/zone: a}}",
                                "{matchExpressions: [{key: zone, operator: In, values: [\"-a\"]}]}").replace("10Gi", "5Gi"),
                        CAPACITY.replace("{matchLabels: {topology.kubernetes.io/zone: a}}",
                                "{matchExpressions: [{key: zone, operator: In, values: [\"-a\"]}]}"),
                        List.of()),
                Arguments.of("attachment: status may change",
                        ATTACHMENT + "status: {attached: true}\n", ATTACHMENT, List.of()),
                Arguments.of("attachment: the spec is immutable, the v1 checks do not rerun",
                        ATTACHMENT.replace("node-1", "node-2").replace("pv-1", "-bad-"), ATTACHMENT,
                        List.of("spec: Invalid value: " + va + ": field is immutable")),
                Arguments.of("attributes class: driver and parameters are immutable",
                        ATTRIBUTES_CLASS.replace("foo-driver", "bar-driver").replace("5000", "6000"), ATTRIBUTES_CLASS,
                        List.of("driverName: Forbidden: updates to driverName are forbidden.",
                                "parameters: Forbidden: updates to parameters are forbidden.")),
                Arguments.of("attributes class: labels may change",
                        ATTRIBUTES_CLASS.replace("{name: gold}", "{name: gold, labels: {a: b}}"), ATTRIBUTES_CLASS, List.of()));
    }
}
