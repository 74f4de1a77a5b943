package io.kapi.apis.services;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;

/**
 * Services with their allocators: a create or update takes the cluster IPs and node ports the service
 * needs before validation and gives them back if the write is not stored; what an update or a delete
 * no longer holds is released once stored. Dry runs check without persisting.
 */
record ServiceStrategy(Strategy base, ServiceAllocators allocators) implements StrategyDecorator {

    @Override
    public Finish beginCreate(ObjectNode object, boolean dryRun) {
        Finish inner = base.beginCreate(object, dryRun);
        Finish mine = begin(inner, object, null, dryRun);
        return stored -> {
            mine.finish(stored);
            inner.finish(stored);
        };
    }

    @Override
    public Finish beginUpdate(ObjectNode object, ObjectNode old, boolean dryRun) {
        Finish inner = base.beginUpdate(object, old, dryRun);
        ServiceUpdates.patchAllocatedValues(object, old);
        ServiceUpdates.normalizeClusterIps(object, old);
        ServiceUpdates.dropTypeDependentFields(object, old);
        Finish mine = begin(inner, object, old, dryRun);
        return stored -> {
            mine.finish(stored);
            inner.finish(stored);
        };
    }

    private Finish begin(Finish inner, ObjectNode object, ObjectNode old, boolean dryRun) {
        try {
            return new ServiceAllocation(allocators).begin(object, old, dryRun);
        } catch (RuntimeException e) {
            inner.finish(false);
            throw e;
        }
    }

    @Override
    public void afterDelete(ObjectNode object) {
        base.afterDelete(object);
        allocators.releaseAll(object);
    }
}
