package io.kapi.endpoint.openapi;

import io.kapi.endpoint.openapi.Operation.Param;
import io.kapi.endpoint.openapi.Operation.PathItem;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Plans the paths and operations kube-apiserver's installer registers for one group-version, from the
 * resource table: collection, item, legacy watch and all-namespaces paths, subresources and connect
 * subresources, with kube-apiserver's operation ids, descriptions, actions, parameters and media types.
 */
final class PathPlanner {

    static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    static final String STATUS = META + "Status";
    static final String DELETE_OPTIONS = META + "DeleteOptions";
    static final String PATCH = META + "Patch";
    static final String WATCH_EVENT = META + "WatchEvent";
    static final String RESOURCE_LIST = META + "APIResourceList";

    static final List<String> ANY = List.of("*/*");
    static final List<String> OBJECT_TYPES = List.of("application/json", "application/yaml",
            "application/vnd.kubernetes.protobuf");
    static final List<String> LIST_TYPES = List.of("application/json", "application/yaml",
            "application/vnd.kubernetes.protobuf", "application/json;stream=watch",
            "application/vnd.kubernetes.protobuf;stream=watch");
    static final List<String> PATCH_TYPES = List.of("application/apply-patch+yaml", "application/json-patch+json",
            "application/merge-patch+json", "application/strategic-merge-patch+json");
    /** Custom resources take no strategic merge patch (kubectl apply reads this and sends a merge patch). */
    static final List<String> CUSTOM_PATCH_TYPES = List.of("application/apply-patch+yaml",
            "application/json-patch+json", "application/merge-patch+json");

    private final ResourceTable table;
    private final Definitions definitions;

    PathPlanner(ResourceTable table, Definitions definitions) {
        this.table = table;
        this.definitions = definitions;
    }

    /** The paths of {@code gv}, the group-version's root path first. */
    List<PathItem> plan(GroupVersion gv) {
        Context c = new Context(gv);
        List<PathItem> paths = new ArrayList<>();
        paths.add(new PathItem(c.prefix + "/", List.of(), List.of(new Operation("get",
                "get" + c.id + "APIResources", "get available resources", null, null, c.tag, List.of(), null,
                false, OBJECT_TYPES, OBJECT_TYPES, Map.of("200", RESOURCE_LIST)))));
        for (ApiResource r : table.resources(gv)) {
            resourcePaths(c, r, paths);
        }
        return paths;
    }

    /**
     * The documents kube-apiserver publishes besides the group-versions, by their key in the v3 index:
     * {@code api} ({@code /api/}), {@code apis} ({@code /apis/}), {@code apis/<group>} ({@code /apis/<group>/})
     * for every group, and {@code version} ({@code /version/}).
     */
    Map<String, PathItem> rootPaths() {
        Map<String, PathItem> roots = new LinkedHashMap<>();
        roots.put("api", root("/api/", "get available API versions", "getCoreAPIVersions", "core",
                META + "APIVersions", OBJECT_TYPES));
        roots.put("apis", root("/apis/", "get available API versions", "getAPIVersions", "apis",
                META + "APIGroupList", OBJECT_TYPES));
        for (GroupVersion gv : table.groupVersions()) {
            if (!gv.group().isEmpty() && !roots.containsKey("apis/" + gv.group())) {
                String tag = tag(gv).substring(0, tag(gv).lastIndexOf('_'));
                roots.put("apis/" + gv.group(), root("/apis/" + gv.group() + "/", "get information of a group",
                        "get" + capitalize(tag) + "APIGroup", tag, META + "APIGroup", OBJECT_TYPES));
            }
        }
        roots.put("version", root("/version/", "get the version information for this server", "getCodeVersion",
                "version", "io.k8s.apimachinery.pkg.version.Info", List.of("application/json")));
        return roots;
    }

    private static PathItem root(String path, String description, String id, String tag, String response,
                                 List<String> types) {
        return new PathItem(path, List.of(), List.of(new Operation("get", id, description, null, null, tag,
                List.of(), null, false, types, types, Map.of("200", response))));
    }

    private record Context(GroupVersion gv, String prefix, String tag, String id) {
        Context(GroupVersion gv) {
            this(gv, gv.group().isEmpty() ? "/api/" + gv.version() : "/apis/" + gv.group() + "/" + gv.version(),
                    PathPlanner.tag(gv), operationPrefix(gv));
        }
    }

    /** The group-version part of operation ids: {@code CoreV1}, {@code RbacAuthorizationV1}. */
    static String operationPrefix(GroupVersion gv) {
        String tag = tag(gv);
        return capitalize(tag.substring(0, tag.lastIndexOf('_'))) + capitalize(gv.version());
    }

    /** kube-apiserver's tag: {@code core_v1}, {@code apps_v1}, {@code rbacAuthorization_v1}. */
    static String tag(GroupVersion gv) {
        if (gv.group().isEmpty()) {
            return "core_" + gv.version();
        }
        String[] parts = gv.group().replaceFirst("\\.k8s\\.io$", "").split("\\.");
        StringBuilder b = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            b.append(capitalize(parts[i]));
        }
        return b + "_" + gv.version();
    }

    private static List<String> patchTypes(ApiResource r) {
        return ResourceTable.builtin().find(r.group(), r.version(), r.name()).isPresent()
                ? PATCH_TYPES : CUSTOM_PATCH_TYPES;
    }

    private void resourcePaths(Context c, ApiResource r, List<PathItem> paths) {
        String ns = r.namespaced() ? "/namespaces/{namespace}" : "";
        String nsKind = (r.namespaced() ? "Namespaced" : "") + r.kind();
        String collection = c.prefix + ns + "/" + r.name();
        String item = collection + "/{name}";
        GroupVersionKind gvk = r.gvk();
        String def = definitions.nameOf(gvk);
        String listDef = definitions.nameOf(new GroupVersionKind(gvk.group(), gvk.version(), gvk.kind() + "List"));
        List<Param> nsParams = r.namespaced() ? List.of(Params.NAMESPACE, Params.PRETTY) : List.of(Params.PRETTY);
        List<Param> itemParams = r.namespaced()
                ? List.of(Params.name(r.kind()), Params.NAMESPACE, Params.PRETTY)
                : List.of(Params.name(r.kind()), Params.PRETTY);

        List<Operation> ops = new ArrayList<>();
        if (r.supports("list")) {
            ops.add(op(c, "get", "list" + c.id + nsKind, "list or watch objects of kind " + r.kind(), "list", gvk,
                    Params.LIST, null, false, ANY, LIST_TYPES, responses("200", listDef)));
        }
        if (r.supports("create")) {
            ops.add(op(c, "post", "create" + c.id + nsKind, "create " + article(r.kind()), "post", gvk,
                    Params.WRITE, def, true, ANY, OBJECT_TYPES, responses("200", def, "201", def, "202", def)));
        }
        if (r.supports("deletecollection")) {
            ops.add(op(c, "delete", "delete" + c.id + "Collection" + nsKind, "delete collection of " + r.kind(),
                    "deletecollection", gvk, Params.DELETE_COLLECTION, DELETE_OPTIONS, false, ANY, OBJECT_TYPES,
                    responses("200", STATUS)));
        }
        add(paths, collection, nsParams, ops);

        ops = new ArrayList<>();
        if (r.supports("get")) {
            ops.add(op(c, "get", "read" + c.id + nsKind, "read the specified " + r.kind(), "get", gvk, List.of(),
                    null, false, ANY, OBJECT_TYPES, responses("200", def)));
        }
        if (r.supports("update")) {
            ops.add(op(c, "put", "replace" + c.id + nsKind, "replace the specified " + r.kind(), "put", gvk,
                    Params.WRITE, def, true, ANY, OBJECT_TYPES, responses("200", def, "201", def)));
        }
        if (r.supports("patch")) {
            ops.add(op(c, "patch", "patch" + c.id + nsKind, "partially update the specified " + r.kind(), "patch",
                    gvk, Params.PATCH, PATCH, true, patchTypes(r), OBJECT_TYPES, responses("200", def, "201", def)));
        }
        if (r.supports("delete")) {
            ops.add(op(c, "delete", "delete" + c.id + nsKind, "delete " + article(r.kind()), "delete", gvk,
                    Params.DELETE, DELETE_OPTIONS, false, ANY, OBJECT_TYPES,
                    responses("200", STATUS, "202", STATUS)));
        }
        add(paths, item, itemParams, ops);

        if (r.supports("watch")) {
            String watch = c.prefix + "/watch" + ns + "/" + r.name();
            add(paths, watch, concat(Params.LIST, nsParams), List.of(op(c, "get", "watch" + c.id + nsKind + "List",
                    "watch individual changes to a list of " + r.kind()
                            + ". deprecated: use the 'watch' parameter with a list operation instead.",
                    "watchlist", gvk, List.of(), null, false, ANY, LIST_TYPES, responses("200", WATCH_EVENT))));
            add(paths, watch + "/{name}", concat(Params.LIST, itemParams), List.of(op(c, "get",
                    "watch" + c.id + nsKind, "watch changes to an object of kind " + r.kind()
                            + ". deprecated: use the 'watch' parameter with a list operation instead, filtered to a"
                            + " single item with the 'fieldSelector' parameter.",
                    "watch", gvk, List.of(), null, false, ANY, LIST_TYPES, responses("200", WATCH_EVENT))));
        }
        if (r.namespaced() && r.supports("list")) {
            add(paths, c.prefix + "/" + r.name(), concat(Params.LIST, List.of(Params.PRETTY)), List.of(op(c, "get",
                    "list" + c.id + r.kind() + "ForAllNamespaces", "list or watch objects of kind " + r.kind(),
                    "list", gvk, List.of(), null, false, ANY, LIST_TYPES, responses("200", listDef))));
            if (r.supports("watch")) {
                add(paths, c.prefix + "/watch/" + r.name(), concat(Params.LIST, List.of(Params.PRETTY)),
                        List.of(op(c, "get", "watch" + c.id + r.kind() + "ListForAllNamespaces",
                                "watch individual changes to a list of " + r.kind()
                                        + ". deprecated: use the 'watch' parameter with a list operation instead.",
                                "watchlist", gvk, List.of(), null, false, ANY, LIST_TYPES,
                                responses("200", WATCH_EVENT))));
            }
        }
        for (ApiResource.Subresource s : r.subresources()) {
            subresourcePaths(c, r, s, item + "/" + s.name(), nsKind + capitalize(s.name()), itemParams, paths);
        }
    }

    private void subresourcePaths(Context c, ApiResource r, ApiResource.Subresource s, String path, String opKind,
                                  List<Param> itemParams, List<PathItem> paths) {
        GroupVersionKind gvk = new GroupVersionKind(s.group(), s.version(), s.kind());
        String def = definitions.nameOf(gvk);
        List<Operation> ops = new ArrayList<>();
        if (s.kind().endsWith("Options")) {
            List<Param> params = s.name().equals("proxy") ? List.of(Params.PATH) : List.of();
            for (String verb : s.verbs()) {
                String method = httpMethod(verb);
                ops.add(op(c, method, "connect" + c.id + capitalize(method) + opKind,
                        "connect " + method.toUpperCase(Locale.ROOT) + " requests to " + s.name() + " of " + r.kind(),
                        "connect", gvk, params, null, false, ANY, ANY, responses("200", null)));
            }
            add(paths, path, itemParams, ops);
            if (s.name().equals("proxy")) {
                List<Operation> withPath = new ArrayList<>();
                for (String verb : s.verbs()) {
                    String method = httpMethod(verb);
                    withPath.add(op(c, method, "connect" + c.id + capitalize(method) + opKind + "WithPath",
                            "connect " + method.toUpperCase(Locale.ROOT) + " requests to " + s.name() + " of "
                                    + r.kind(), "connect", gvk, List.of(), null, false, ANY, ANY,
                            responses("200", null)));
                }
                add(paths, path + "/{path}", concat(List.of(Params.PATH), itemParams), withPath);
            }
            return;
        }
        boolean log = s.name().equals("log");
        if (s.verbs().contains("get")) {
            ops.add(op(c, "get", "read" + c.id + opKind, "read " + s.name() + " of the specified " + r.kind(), "get",
                    gvk, List.of(), null, false, ANY,
                    log ? List.of("text/plain", "application/json", "application/yaml",
                            "application/vnd.kubernetes.protobuf") : OBJECT_TYPES,
                    responses("200", log ? null : def)));
        }
        if (s.verbs().contains("create")) {
            ops.add(op(c, "post", "create" + c.id + opKind, "create " + s.name() + " of " + article(r.kind()),
                    "post", gvk, Params.WRITE, def, true, ANY, OBJECT_TYPES,
                    responses("200", def, "201", def, "202", def)));
        }
        if (s.verbs().contains("update")) {
            ops.add(op(c, "put", "replace" + c.id + opKind, "replace " + s.name() + " of the specified " + r.kind(),
                    "put", gvk, Params.WRITE, def, true, ANY, OBJECT_TYPES, responses("200", def, "201", def)));
        }
        if (s.verbs().contains("patch")) {
            ops.add(op(c, "patch", "patch" + c.id + opKind,
                    "partially update " + s.name() + " of the specified " + r.kind(), "patch", gvk, Params.PATCH,
                    PATCH, true, patchTypes(r), OBJECT_TYPES, responses("200", def, "201", def)));
        }
        add(paths, path, itemParams, ops);
    }

    private static Operation op(Context c, String method, String id, String description, String action,
                                GroupVersionKind gvk, List<Param> params, String body, boolean bodyRequired,
                                List<String> consumes, List<String> produces, Map<String, String> responses) {
        return new Operation(method, id, description, action, gvk, c.tag, params, body, bodyRequired, consumes,
                produces, responses);
    }

    private static void add(List<PathItem> paths, String path, List<Param> params, List<Operation> ops) {
        if (!ops.isEmpty()) {
            paths.add(new PathItem(path, params, List.copyOf(ops)));
        }
    }

    private static Map<String, String> responses(String... codeAndDef) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < codeAndDef.length; i += 2) {
            out.put(codeAndDef[i], codeAndDef[i + 1]);
        }
        return out;
    }

    private static List<Param> concat(List<Param> a, List<Param> b) {
        List<Param> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static String httpMethod(String verb) {
        return switch (verb) {
            case "create" -> "post";
            case "update" -> "put";
            default -> verb;
        };
    }

    private static String article(String kind) {
        return ("AEIOU".indexOf(kind.charAt(0)) >= 0 ? "an " : "a ") + kind;
    }

    static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
