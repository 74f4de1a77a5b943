package io.kapi.authz;

import io.kapi.machinery.ApiException;
import io.kapi.registry.FieldSelector;

/**
 * A request's field selector as authorizers read it (kube's {@code GetFieldSelector}): parsed, or no
 * requirements at all when it does not parse — authorization then decides as for an unselected
 * request and the request itself is refused with 400 by the handler.
 */
final class FieldRequirements {

    private FieldRequirements() {
    }

    static FieldSelector of(String raw) {
        try {
            return FieldSelector.parse(raw);
        } catch (ApiException e) {
            return FieldSelector.EVERYTHING;
        }
    }
}
