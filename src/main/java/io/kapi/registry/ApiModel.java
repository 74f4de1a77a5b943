package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceTable;
import java.util.List;
import java.util.Map;

/**
 * The served API at one moment, what discovery and OpenAPI documents are made from; a new version
 * each time resources are added or removed.
 *
 * @param version grows by one with every change
 * @param table every served resource: the built-ins and those added at run time
 * @param extra the resources added at run time
 * @param schemas the Swagger 2.0 definitions of the added resources' kinds, by name
 */
public record ApiModel(long version, ResourceTable table, List<ApiResource> extra, Map<String, ObjectNode> schemas) {
}
