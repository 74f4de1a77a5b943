package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.bool;
import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.integerPointer;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.text;
import static io.kapi.apis.defaults.Fields.textPointer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;

/**
 * Defaults of pod volumes and persistent volume sources, as core/v1's {@code SetDefaults_Volume} and
 * the per-source defaulters (secret, configMap, downwardAPI, projected, hostPath, iSCSI, RBD, Azure
 * disk, ScaleIO, image, ephemeral claim templates).
 */
final class Volumes {

    /** 0644, the mode kube gives files of secret, configMap, downwardAPI and projected volumes. */
    static final int DEFAULT_MODE = 0644;

    private Volumes() {
    }

    /** One entry of {@code spec.volumes}: with no source at all it becomes an {@code emptyDir}. */
    static void volume(ObjectNode volume) {
        if (!hasSource(volume)) {
            volume.putObject("emptyDir");
        }
        ObjectNode image = child(volume, "image");
        if (image != null) {
            text(image, "pullPolicy", Containers.pullPolicy(Fields.text(image, "reference")));
        }
        sharedSources(volume);
        ObjectNode secret = child(volume, "secret");
        if (secret != null) {
            integerPointer(secret, "defaultMode", DEFAULT_MODE);
        }
        ObjectNode configMap = child(volume, "configMap");
        if (configMap != null) {
            integerPointer(configMap, "defaultMode", DEFAULT_MODE);
        }
        ObjectNode downwardApi = child(volume, "downwardAPI");
        if (downwardApi != null) {
            integerPointer(downwardApi, "defaultMode", DEFAULT_MODE);
            downwardItems(downwardApi);
        }
        ObjectNode projected = child(volume, "projected");
        if (projected != null) {
            integerPointer(projected, "defaultMode", DEFAULT_MODE);
            for (ObjectNode source : items(projected, "sources")) {
                downwardItems(child(source, "downwardAPI"));
                ObjectNode token = child(source, "serviceAccountToken");
                if (token != null) {
                    integerPointer(token, "expirationSeconds", 3600);
                }
            }
        }
        ObjectNode ephemeral = child(volume, "ephemeral");
        ObjectNode claimSpec = child(child(ephemeral, "volumeClaimTemplate"), "spec");
        if (claimSpec != null) {
            claimSpec(claimSpec);
        }
    }

    /** The sources a PersistentVolume shares with pod volumes and that have defaults. */
    static void persistentSource(ObjectNode pvSpec) {
        sharedSources(pvSpec);
    }

    /** A {@code PersistentVolumeClaimSpec}: volumeMode Filesystem. */
    static void claimSpec(ObjectNode spec) {
        textPointer(spec, "volumeMode", "Filesystem");
        ResourceLists.requirements(child(spec, "resources"));
    }

    private static void sharedSources(ObjectNode holder) {
        ObjectNode hostPath = child(holder, "hostPath");
        if (hostPath != null) {
            textPointer(hostPath, "type", "");
        }
        ObjectNode iscsi = child(holder, "iscsi");
        if (iscsi != null) {
            text(iscsi, "iscsiInterface", "default");
        }
        ObjectNode rbd = child(holder, "rbd");
        if (rbd != null) {
            text(rbd, "pool", "rbd");
            text(rbd, "user", "admin");
            text(rbd, "keyring", "/etc/ceph/keyring");
        }
        ObjectNode azureDisk = child(holder, "azureDisk");
        if (azureDisk != null) {
            textPointer(azureDisk, "cachingMode", "ReadWrite");
            textPointer(azureDisk, "fsType", "ext4");
            bool(azureDisk, "readOnly", false);
            textPointer(azureDisk, "kind", "Shared");
        }
        ObjectNode scaleIo = child(holder, "scaleIO");
        if (scaleIo != null) {
            text(scaleIo, "storageMode", "ThinProvisioned");
            text(scaleIo, "fsType", "xfs");
        }
    }

    private static void downwardItems(ObjectNode downwardApi) {
        for (ObjectNode item : items(downwardApi, "items")) {
            Containers.fieldRef(child(item, "fieldRef"));
        }
    }

    private static boolean hasSource(ObjectNode volume) {
        for (Iterator<String> names = volume.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("name") && !volume.get(name).isNull()) {
                return true;
            }
        }
        return false;
    }
}
