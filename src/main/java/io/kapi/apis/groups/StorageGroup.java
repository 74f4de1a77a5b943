package io.kapi.apis.groups;

import io.kapi.apis.defaults.StorageDefaults;
import io.kapi.apis.validation.Storage;
import io.kapi.apis.validation.StorageKinds;
import io.kapi.apis.validation.VolumeAttachments;
import io.kapi.endpoint.table.StoragePrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code storage.k8s.io}. */
final class StorageGroup {

    private static final GroupVersion V1 = new GroupVersion("storage.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "CSIDriver")
                    .defaults(StorageDefaults::csiDriver)
                    .validation(StorageKinds.CSI_DRIVER)
                    .printer(StoragePrinters::csiDrivers),
            BuiltinKind.of(V1, "CSINode")
                    .validation(StorageKinds.CSI_NODE)
                    .printer(StoragePrinters::csiNodes),
            BuiltinKind.of(V1, "CSIStorageCapacity")
                    .validation(StorageKinds.CSI_STORAGE_CAPACITY)
                    .printer(StoragePrinters::csiStorageCapacities),
            BuiltinKind.of(V1, "StorageClass")
                    .defaults(StorageDefaults::storageClass)
                    .validation(Storage.STORAGE_CLASS)
                    .printer(StoragePrinters::storageClasses),
            BuiltinKind.of(V1, "VolumeAttachment")
                    .defaults(StorageDefaults::volumeAttachment)
                    .validation(VolumeAttachments.RULES)
                    .printer(StoragePrinters::volumeAttachments),
            BuiltinKind.of(V1, "VolumeAttributesClass")
                    .validation(StorageKinds.VOLUME_ATTRIBUTES_CLASS)
                    .printer(StoragePrinters::volumeAttributesClasses));

    private StorageGroup() {
    }
}
