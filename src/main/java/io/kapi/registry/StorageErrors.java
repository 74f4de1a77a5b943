package io.kapi.registry;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.storage.StorageException;

/** Translates storage failures into API errors: the one place, as kube-apiserver's {@code storeerr}. */
final class StorageErrors {

    private StorageErrors() {
    }

    static ApiException interpret(StorageException e, GroupVersionResource gvr, String name) {
        return switch (e) {
            case StorageException.KeyExists ignored -> ApiException.alreadyExists(gvr, name);
            case StorageException.KeyNotFound ignored -> ApiException.notFound(gvr, name);
            case StorageException.Conflict ignored -> ApiException.staleUpdate(gvr, name);
            case StorageException.Compacted c -> ApiException.gone(
                    "The resourceVersion for the provided list is too old.");
            case StorageException.Unavailable u -> ApiException.serviceUnavailable(
                    "storage is unavailable: " + u.getMessage());
            default -> ApiException.internal(e.getMessage());
        };
    }
}
