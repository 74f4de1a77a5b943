package io.kapi.endpoint.discovery;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceTable;
import java.util.List;

/**
 * Builds the discovery documents of a {@link ResourceTable} as kube-apiserver writes them, field for
 * field and in the same order (Go's struct order): the legacy {@code APIVersions},
 * {@code APIGroupList}, {@code APIGroup} and {@code APIResourceList}, and the aggregated
 * {@code apidiscovery.k8s.io} {@code APIGroupDiscoveryList}.
 */
final class DiscoveryDocuments {

    private final ResourceTable table;
    private final List<ExternalVersion> externals;

    DiscoveryDocuments(ResourceTable table) {
        this(table, List.of());
    }

    /** @param externals aggregated group-versions, listed after this server's groups, in their given order */
    DiscoveryDocuments(ResourceTable table, List<ExternalVersion> externals) {
        this.table = table;
        this.externals = externals;
    }

    /** {@code GET /api}: note kube-apiserver sends no apiVersion here. */
    ObjectNode apiVersions(String serverAddress) {
        ObjectNode doc = Json.object();
        doc.put("kind", "APIVersions");
        ArrayNode versions = doc.putArray("versions");
        table.versions("").forEach(versions::add);
        ObjectNode cidr = doc.putArray("serverAddressByClientCIDRs").addObject();
        cidr.put("clientCIDR", "0.0.0.0/0");
        cidr.put("serverAddress", serverAddress);
        return doc;
    }

    /** {@code GET /apis}. */
    ObjectNode groupList() {
        ObjectNode doc = Json.object();
        doc.put("kind", "APIGroupList");
        doc.put("apiVersion", "v1");
        ArrayNode groups = doc.putArray("groups");
        for (String group : groups()) {
            groups.add(groupBody(Json.object(), group));
        }
        return doc;
    }

    /** {@code GET /apis/{group}}. */
    ObjectNode group(String group) {
        ObjectNode doc = Json.object();
        doc.put("kind", "APIGroup");
        doc.put("apiVersion", "v1");
        return groupBody(doc, group);
    }

    private ObjectNode groupBody(ObjectNode doc, String group) {
        doc.put("name", group);
        ArrayNode versions = doc.putArray("versions");
        List<String> all = versions(group);
        for (String v : all) {
            versionEntry(versions.addObject(), group, v);
        }
        versionEntry(doc.putObject("preferredVersion"), group,
                table.versions(group).isEmpty() ? all.getFirst() : table.preferredVersion(group));
        return doc;
    }

    private static void versionEntry(ObjectNode node, String group, String version) {
        node.put("groupVersion", new GroupVersion(group, version).apiVersion());
        node.put("version", version);
    }

    /** {@code GET /api/v1} or {@code /apis/{group}/{version}}; the core list carries no apiVersion. */
    ObjectNode resourceList(GroupVersion gv) {
        ObjectNode doc = Json.object();
        doc.put("kind", "APIResourceList");
        if (!gv.group().isEmpty()) {
            doc.put("apiVersion", "v1");
        }
        doc.put("groupVersion", gv.apiVersion());
        ArrayNode resources = doc.putArray("resources");
        for (ApiResource r : table.resources(gv)) {
            ObjectNode main = resources.addObject();
            main.put("name", r.name());
            main.put("singularName", r.singularName());
            main.put("namespaced", r.namespaced());
            main.put("kind", r.kind());
            strings(main, "verbs", r.verbs(), true);
            strings(main, "shortNames", r.shortNames(), false);
            strings(main, "categories", r.categories(), false);
            table.storageVersionHash(r).ifPresent(h -> main.put("storageVersionHash", h));
            for (ApiResource.Subresource s : r.subresources()) {
                ObjectNode sub = resources.addObject();
                sub.put("name", r.name() + "/" + s.name());
                sub.put("singularName", "");
                sub.put("namespaced", r.namespaced());
                if (!s.group().equals(r.group()) || !s.version().equals(r.version())) {
                    sub.put("group", s.group());
                    sub.put("version", s.version());
                }
                sub.put("kind", s.kind());
                strings(sub, "verbs", s.verbs(), true);
            }
        }
        return doc;
    }

    /**
     * The aggregated discovery document: for {@code /api} only the core group (named ""), for
     * {@code /apis} every other group in priority order.
     *
     * @param apiVersion {@code apidiscovery.k8s.io/v2} or {@code apidiscovery.k8s.io/v2beta1}
     */
    ObjectNode aggregated(boolean core, String apiVersion) {
        ObjectNode doc = Json.object();
        doc.put("kind", "APIGroupDiscoveryList");
        doc.put("apiVersion", apiVersion);
        doc.putObject("metadata");
        ArrayNode items = doc.putArray("items");
        for (String group : core ? List.of("") : groups()) {
            ObjectNode item = items.addObject();
            ObjectNode meta = item.putObject("metadata");
            if (!group.isEmpty()) {
                meta.put("name", group);
            }
            meta.putNull("creationTimestamp");
            ArrayNode versions = item.putArray("versions");
            for (String v : table.versions(group)) {
                ObjectNode version = versions.addObject();
                version.put("version", v);
                ArrayNode resources = version.putArray("resources");
                table.resources(new GroupVersion(group, v)).forEach(r -> aggregatedResource(resources.addObject(), r));
                version.put("freshness", "Current");
            }
            for (ExternalVersion e : external(group)) {
                if (e.resourceList() != null) {
                    ObjectNode version = versions.addObject();
                    version.put("version", e.groupVersion().version());
                    RemoteResources.aggregated(e.resourceList(), version.putArray("resources"));
                    version.put("freshness", "Current");
                }
            }
            if (versions.isEmpty()) {
                items.remove(items.size() - 1);
            }
        }
        return doc;
    }

    private static void aggregatedResource(ObjectNode node, ApiResource r) {
        node.put("resource", r.name());
        kind(node.putObject("responseKind"), "", "", r.kind());
        node.put("scope", r.namespaced() ? "Namespaced" : "Cluster");
        node.put("singularResource", r.singularName());
        strings(node, "verbs", r.verbs(), true);
        strings(node, "shortNames", r.shortNames(), false);
        strings(node, "categories", r.categories(), false);
        if (!r.subresources().isEmpty()) {
            ArrayNode subs = node.putArray("subresources");
            for (ApiResource.Subresource s : r.subresources()) {
                ObjectNode sub = subs.addObject();
                sub.put("subresource", s.name());
                boolean same = s.group().equals(r.group()) && s.version().equals(r.version());
                kind(sub.putObject("responseKind"), same ? "" : s.group(), same ? "" : s.version(), s.kind());
                strings(sub, "verbs", s.verbs(), true);
            }
        }
    }

    private static void kind(ObjectNode node, String group, String version, String kind) {
        node.put("group", group);
        node.put("version", version);
        node.put("kind", kind);
    }

    private static void strings(ObjectNode node, String field, List<String> values, boolean always) {
        if (always || !values.isEmpty()) {
            ArrayNode array = node.putArray(field);
            values.forEach(array::add);
        }
    }

    /** This server's groups, then the aggregated ones it does not serve itself. */
    private List<String> groups() {
        return java.util.stream.Stream.concat(table.groupVersions().stream(),
                        externals.stream().map(ExternalVersion::groupVersion))
                .map(GroupVersion::group).filter(g -> !g.isEmpty()).distinct().toList();
    }

    /** The versions of {@code group}: this server's, then the aggregated ones it does not serve. */
    private List<String> versions(String group) {
        List<String> own = table.versions(group);
        return java.util.stream.Stream.concat(own.stream(),
                external(group).stream().map(e -> e.groupVersion().version()).filter(v -> !own.contains(v))).toList();
    }

    /** The aggregated versions of {@code group} this server does not serve itself. */
    private List<ExternalVersion> external(String group) {
        List<String> own = table.versions(group);
        return externals.stream().filter(e -> e.groupVersion().group().equals(group)
                && !own.contains(e.groupVersion().version())).toList();
    }
}
