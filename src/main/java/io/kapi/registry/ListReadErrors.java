package io.kapi.registry;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.StatusReason;
import io.kapi.storage.cache.ResourceCache;
import java.util.ArrayList;
import java.util.List;

/**
 * What a LIST answers when it meets stored values it cannot read, as kube 1.34's store does: without the
 * {@code AllowUnsafeMalformedObjectDeletion} gate the first one stops the list ({@code unable to transform key
 * "…"}); with it, up to {@value ResourceCache.Unreadable#MOST} are gathered into one {@code StoreReadError} naming each key, so
 * that an administrator can find and remove them all.
 */
final class ListReadErrors {

    private ListReadErrors() {
    }

    /**
     * @param errors the errors of the unreadable values met, in key order (a later one may be the too-many mark:
     *               more than {@value ResourceCache.Unreadable#MOST})
     * @param group the resource's group ({@code ""} for the core group)
     * @param resource the resource's plural
     */
    static RuntimeException of(List<RuntimeException> errors, boolean unsafeDeletionGate, String group,
                               String resource) {
        RuntimeException first = errors.getFirst();
        var corrupt = CorruptValue.of(first);
        if (corrupt.isEmpty()) {
            return first;
        }
        if (!unsafeDeletionGate) {
            return corrupt.get().listError();
        }
        List<StatusCause> causes = new ArrayList<>();
        for (RuntimeException e : errors) {
            if (causes.size() == ResourceCache.Unreadable.MOST) {
                causes.add(new StatusCause("TooMany", "too many errors, the list is truncated", null));
                break;
            }
            var value = CorruptValue.of(e);
            if (value.isEmpty()) {
                break; // not a corrupt value: kube's aggregator stops there, answering what it gathered
            }
            causes.add(value.get().statusCause());
        }
        String qualified = group.isEmpty() ? resource : resource + "." + group;
        return new ApiException(StatusReason.STORE_READ_ERROR, 500,
                "failed to read one or more " + qualified + " from the storage",
                new ApiException.Details("list", group.isEmpty() ? null : group, resource, causes, null));
    }
}
