package io.kapi.machinery.resource;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The resources a default kube-apiserver 1.34 serves, read once from the data file
 * {@code apis/builtin-resources.json}: every group/version/resource with its names, scope, verbs,
 * short names, categories and subresources, the group-versions in discovery order, and the version
 * each resource is stored in (which discovery's {@code storageVersionHash} is computed from).
 *
 * <p>Immutable and thread-safe; {@link #builtin()} parses the file on first use only.
 */
public final class ResourceTable {

    private static final String DATA = "/apis/builtin-resources.json";

    private final List<ApiResource> resources;
    private final List<GroupVersion> groupVersions;
    private final Map<String, List<String>> versionsByGroup;
    private final Map<String, ApiResource> byPath;
    private final Map<GroupVersionKind, ApiResource> byKind;
    private final Map<ApiResource, String> storageHashes;
    private final Map<io.kapi.machinery.GroupVersionResource, ResourceFacts> facts;

    private ResourceTable(List<ApiResource> resources, Map<String, List<String>> versionsByGroup,
                          Map<ApiResource, ResourceFacts> facts, Map<ApiResource, String> knownHashes) {
        this.resources = List.copyOf(resources);
        Map<String, List<String>> frozen = new LinkedHashMap<>();
        versionsByGroup.forEach((g, vs) -> frozen.put(g, List.copyOf(vs)));
        this.versionsByGroup = Collections.unmodifiableMap(frozen);
        List<GroupVersion> gvs = new ArrayList<>();
        versionsByGroup.forEach((g, vs) -> vs.forEach(v -> gvs.add(new GroupVersion(g, v))));
        this.groupVersions = List.copyOf(gvs);
        Map<String, ApiResource> paths = new HashMap<>();
        Map<GroupVersionKind, ApiResource> kinds = new HashMap<>();
        Map<ApiResource, String> hashes = new HashMap<>();
        for (ApiResource r : resources) {
            paths.put(key(r.group(), r.version(), r.name()), r);
            kinds.putIfAbsent(r.gvk(), r);
            ResourceFacts f = facts.get(r);
            GroupVersionKind s = f == null ? null : f.storageVersion();
            if (knownHashes.containsKey(r)) {
                hashes.put(r, knownHashes.get(r));
            } else if (s != null) {
                hashes.put(r, storageVersionHash(s));
            }
        }
        this.byPath = Map.copyOf(paths);
        this.byKind = Map.copyOf(kinds);
        this.storageHashes = Map.copyOf(hashes);
        Map<io.kapi.machinery.GroupVersionResource, ResourceFacts> byGvr = new HashMap<>();
        facts.forEach((r, f) -> {
            if (f != null) {
                byGvr.put(r.gvr(), f);
            }
        });
        this.facts = Map.copyOf(byGvr);
    }

    private static final class Builtin {
        static final ResourceTable INSTANCE = load(DATA);
    }

    /** The built-in API of kube-apiserver 1.34 with its default feature gates and API enablement. */
    public static ResourceTable builtin() {
        return Builtin.INSTANCE;
    }

    /**
     * This table plus {@code extra} resources (custom resources, which kube-apiserver lists after the
     * built-in groups): new groups come after the existing ones in alphabetical order, each group's
     * versions in Kubernetes version priority (GA before beta before alpha, higher numbers first), and
     * resources alphabetically within a group-version. Extra resources have no storage version hash.
     *
     * @throws IllegalArgumentException if an extra resource is already in the table
     */
    public ResourceTable plus(Collection<ApiResource> extra) {
        return plus(extra, Map.of());
    }

    /** As {@link #plus(Collection)}, with the facts of the extra resources. */
    public ResourceTable plus(Collection<ApiResource> extra, Map<ApiResource, ResourceFacts> extraFacts) {
        Map<String, List<String>> versions = new LinkedHashMap<>();
        versionsByGroup.forEach((g, vs) -> versions.put(g, new ArrayList<>(vs)));
        SortedMap<String, Set<String>> added = new TreeMap<>();
        for (ApiResource r : extra) {
            if (byPath.containsKey(key(r.group(), r.version(), r.name()))) {
                throw new IllegalArgumentException("resource already served: " + r.gvr());
            }
            if (!versions.getOrDefault(r.group(), List.of()).contains(r.version())) {
                added.computeIfAbsent(r.group(), g -> new HashSet<>()).add(r.version());
            }
        }
        added.forEach((group, vs) -> {
            List<String> list = versions.computeIfAbsent(group, g -> new ArrayList<>());
            vs.stream().sorted(ResourceTable::compareVersions).forEach(list::add);
        });
        List<GroupVersion> order = new ArrayList<>();
        versions.forEach((g, vs) -> vs.forEach(v -> order.add(new GroupVersion(g, v))));
        List<ApiResource> all = new ArrayList<>(resources);
        all.addAll(extra);
        all.sort(Comparator.<ApiResource>comparingInt(
                r -> order.indexOf(new GroupVersion(r.group(), r.version()))).thenComparing(ApiResource::name));
        Map<ApiResource, ResourceFacts> allFacts = new HashMap<>();
        for (ApiResource r : resources) {
            allFacts.put(r, facts.get(r.gvr()));
        }
        allFacts.putAll(extraFacts);
        return new ResourceTable(all, versions, allFacts, storageHashes);
    }

    /**
     * Kubernetes' version priority: kube-like versions ({@code v<major>[alpha|beta<minor>]}) before
     * others; GA before beta before alpha; then higher major, then higher minor; others alphabetically.
     */
    public static int compareVersions(String a, String b) {
        Matcher ma = KUBE_VERSION.matcher(a);
        Matcher mb = KUBE_VERSION.matcher(b);
        boolean ka = ma.matches();
        boolean kb = mb.matches();
        if (!ka || !kb) {
            return ka == kb ? a.compareTo(b) : ka ? -1 : 1;
        }
        int stability = Integer.compare(stability(mb.group(2)), stability(ma.group(2)));
        if (stability != 0) {
            return stability;
        }
        int major = Long.compare(Long.parseLong(mb.group(1)), Long.parseLong(ma.group(1)));
        if (major != 0 || ma.group(3) == null) {
            return major;
        }
        return Long.compare(Long.parseLong(mb.group(3)), Long.parseLong(ma.group(3)));
    }

    private static final Pattern KUBE_VERSION =
            Pattern.compile("v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?");

    private static int stability(String level) {
        return level == null ? 2 : level.equals("beta") ? 1 : 0;
    }

    /** Every resource, grouped by group-version in discovery order, alphabetical within one. */
    public List<ApiResource> resources() {
        return resources;
    }

    /**
     * The served group-versions in kube-apiserver's discovery order: core {@code v1} first, then the
     * groups by descending priority, each group's versions in preference order.
     */
    public List<GroupVersion> groupVersions() {
        return groupVersions;
    }

    /** The resources of one group-version, in discovery order; empty if it is not served. */
    public List<ApiResource> resources(GroupVersion gv) {
        return resources.stream()
                .filter(r -> r.group().equals(gv.group()) && r.version().equals(gv.version()))
                .toList();
    }

    /** Whether {@code gv} is served. */
    public boolean serves(GroupVersion gv) {
        return versionsByGroup.getOrDefault(gv.group(), List.of()).contains(gv.version());
    }

    /** The served versions of {@code group} in preference order; empty if the group is unknown. */
    public List<String> versions(String group) {
        return versionsByGroup.getOrDefault(group, List.of());
    }

    /** The resource at {@code /apis/group/version/plural} ({@code group} "" for core). */
    public Optional<ApiResource> find(String group, String version, String plural) {
        return Optional.ofNullable(byPath.get(key(group, version, plural)));
    }

    /** The resource serving {@code gvk} as its main kind (not as a subresource kind). */
    public Optional<ApiResource> forKind(GroupVersionKind gvk) {
        return Optional.ofNullable(byKind.get(gvk));
    }

    /**
     * The preferred (first) version of {@code group}.
     *
     * @throws IllegalArgumentException if the group is not served
     */
    public String preferredVersion(String group) {
        List<String> versions = versionsByGroup.get(group);
        if (versions == null) {
            throw new IllegalArgumentException("group not served: " + group);
        }
        return versions.getFirst();
    }

    /**
     * The table's facts of {@code resource}; a resource without any (an extra one added without facts)
     * is stored as its own kind under its plural.
     */
    public ResourceFacts facts(ApiResource resource) {
        ResourceFacts f = facts.get(resource.gvr());
        return f != null ? f : ResourceFacts.plain(resource.gvk(), resource.name());
    }

    /**
     * Discovery's {@code storageVersionHash}: present only for resources kept in storage (not for
     * virtual ones such as reviews or bindings).
     */
    public Optional<String> storageVersionHash(ApiResource resource) {
        return Optional.ofNullable(storageHashes.get(resource));
    }

    /**
     * kube-apiserver's hash of a storage version: the first 8 bytes of SHA-256 over
     * {@code group/version/kind}, base64 encoded. Clients compare it for equality only.
     */
    public static String storageVersionHash(GroupVersionKind storage) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    (storage.group() + "/" + storage.version() + "/" + storage.kind())
                            .getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(Arrays.copyOf(digest, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static ResourceTable load(String resource) {
        try (InputStream in = ResourceTable.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing class-path resource " + resource);
            }
            return parse(Json.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private static ResourceTable parse(JsonNode root) {
        Map<String, List<String>> versions = new LinkedHashMap<>();
        for (JsonNode g : root.path("groups")) {
            versions.put(g.path("group").asText(), strings(g.path("versions")));
        }
        List<ApiResource> rows = new ArrayList<>();
        Map<ApiResource, ResourceFacts> facts = new HashMap<>();
        for (JsonNode r : root.path("resources")) {
            String group = r.path("group").asText();
            String version = r.path("version").asText();
            String kind = r.path("kind").asText();
            List<ApiResource.Subresource> subs = new ArrayList<>();
            for (JsonNode s : r.path("subresources")) {
                subs.add(new ApiResource.Subresource(s.path("name").asText(),
                        s.has("group") ? s.get("group").asText() : group,
                        s.has("version") ? s.get("version").asText() : version,
                        s.path("kind").asText(), strings(s.path("verbs"))));
            }
            ApiResource row = new ApiResource(group, version, r.path("name").asText(),
                    r.path("singularName").asText(), kind, r.path("namespaced").asBoolean(),
                    strings(r.path("verbs")), strings(r.path("shortNames")), strings(r.path("categories")),
                    List.copyOf(subs));
            if (!versions.getOrDefault(group, List.of()).contains(version)) {
                throw new IllegalStateException("resource " + row.gvr() + " of an unlisted group-version");
            }
            rows.add(row);
            facts.put(row, facts(r, row));
        }
        return new ResourceTable(rows, versions, facts, Map.of());
    }

    private static ResourceFacts facts(JsonNode r, ApiResource row) {
        GroupVersionKind storage = null;
        if (r.hasNonNull("storageVersion")) {
            GroupVersion s = GroupVersion.parse(r.get("storageVersion").asText());
            storage = new GroupVersionKind(s.group(), s.version(), row.kind());
        }
        List<ResourceFacts.SelectableField> fields = new ArrayList<>();
        for (JsonNode f : r.path("selectableFields")) {
            fields.add(new ResourceFacts.SelectableField(f.path("path").asText(), f.path("as").asText("text"),
                    f.path("from").asText(f.path("path").asText())));
        }
        return new ResourceFacts(storage, r.path("storagePath").asText(row.name()),
                r.path("tracksGeneration").asBoolean(false), r.path("createOnUpdate").asBoolean(false), fields);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return List.copyOf(out);
    }

    private static String key(String group, String version, String plural) {
        return group + "/" + version + "/" + plural;
    }
}
