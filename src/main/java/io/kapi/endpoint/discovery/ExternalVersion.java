package io.kapi.endpoint.discovery;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersion;

/**
 * A group-version another server serves (an aggregated API server behind an APIService), as discovery
 * lists it beside this server's own: where its group and version sort, and its resources as that server's
 * {@code APIResourceList} gave them (null while it has not answered: the version is then listed in the
 * legacy documents but left out of aggregated discovery).
 */
public record ExternalVersion(GroupVersion groupVersion, int groupPriority, int versionPriority,
                              ObjectNode resourceList) {
}
