package io.kapi.flowcontrol;

/**
 * How many objects of a resource the watch cache holds and how many watchers follow it: what work
 * estimates are made of. Returns null for a resource without a watch cache.
 */
@FunctionalInterface
public interface ObjectCounts {

    ObjectCounts NONE = (group, version, resource) -> null;

    Counts counts(String group, String version, String resource);

    /** @param objects objects stored (all namespaces) @param watchers open watches */
    record Counts(long objects, int watchers) {
    }
}
