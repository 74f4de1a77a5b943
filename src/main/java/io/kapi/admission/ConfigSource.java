package io.kapi.admission;

import io.kapi.machinery.GroupVersionResource;

/**
 * Live views of the resources plugins are configured by (webhook configurations, admission policies and
 * bindings, quotas, limit ranges): asked for when a plugin is built, kept current by a watch from the
 * server's start.
 */
@FunctionalInterface
public interface ConfigSource {

    LiveObjects watch(GroupVersionResource resource);
}
