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
    private static final System.Logger LOG = System.getLogger(ResourceTable.class.getName());

    private final List<ApiResource> resources;
    private final List<GroupVersion> groupVersions;
    private final Map<String, List<String>> versionsByGroup;
    private final Map<String, ApiResource> byPath;
    private final Map<GroupVersionKind, ApiResource> byKind;
    private final Map<ApiResource, String> storageHashes;
    private final Map<io.kapi.machinery.GroupVersionResource, ResourceFacts> facts;
    private final Catalog catalog;

    /**
     * What the data file holds beyond the default: every row (those of versions served only when
     * {@code --runtime-config} enables them too), the versions of each group in preference order, the
     * off-by-default ones, and the further versions kube registers that Kapi does not serve.
     */
    private record Catalog(List<ApiResource> rows, Map<ApiResource, ResourceFacts> facts,
                           Map<String, List<String>> versions, Set<GroupVersion> offByDefault,
                           Set<GroupVersion> registered) {

        /**
         * The table of the rows {@code keep} picks: every default version stays listed; an off-by-default
         * one is listed when one of its rows is kept.
         */
        ResourceTable select(java.util.function.Predicate<ApiResource> keep) {
            List<ApiResource> kept = rows.stream().filter(keep).toList();
            Set<GroupVersion> withRows = new HashSet<>();
            kept.forEach(r -> withRows.add(new GroupVersion(r.group(), r.version())));
            Map<String, List<String>> listed = new LinkedHashMap<>();
            versions.forEach((group, vs) -> listed.put(group, vs.stream().filter(v -> {
                GroupVersion gv = new GroupVersion(group, v);
                return !offByDefault.contains(gv) || withRows.contains(gv);
            }).toList()));
            Map<ApiResource, ResourceFacts> keptFacts = new HashMap<>();
            kept.forEach(r -> keptFacts.put(r, facts.get(r)));
            return new ResourceTable(kept, listed, keptFacts, Map.of(), this);
        }
    }

    private ResourceTable(List<ApiResource> resources, Map<String, List<String>> versionsByGroup,
                          Map<ApiResource, ResourceFacts> facts, Map<ApiResource, String> knownHashes,
                          Catalog catalog) {
        this.catalog = catalog;
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
        catalog.facts().forEach((r, f) -> byGvr.put(r.gvr(), f));
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
     * The built-in API as {@code --runtime-config} changes it: the defaults, plus the off-by-default
     * versions (or single resources of them) it enables. Versions served by default stay served (Kapi
     * cannot switch them off; it warns); versions kube registers but Kapi does not serve are warned about
     * and skipped; groups kube does not have are ignored, as kube ignores them.
     *
     * @throws IllegalArgumentException for a version of a known group that kube-apiserver 1.34 does not
     *         register, worded as kube's: {@code group version apps/v9 that has not been registered}
     */
    public static ResourceTable builtin(ApiEnablement enablement) {
        ResourceTable base = builtin();
        if (enablement.isDefault()) {
            return base;
        }
        Catalog c = base.catalog;
        for (GroupVersion gv : enablement.named()) {
            List<String> versions = c.versions().get(gv.group());
            if (versions == null) {
                continue;
            }
            if (!versions.contains(gv.version()) && !c.registered().contains(gv)) {
                throw new IllegalArgumentException("group version " + gv + " that has not been registered");
            }
            if (c.registered().contains(gv) && enablement.enabled(gv, false)) {
                LOG.log(System.Logger.Level.WARNING, "--runtime-config enables {0}, which Kapi does not serve", gv);
            }
        }
        for (GroupVersion gv : base.groupVersions()) {
            if (!enablement.enabled(gv, true)) {
                LOG.log(System.Logger.Level.WARNING, "--runtime-config disables {0}; Kapi serves it anyway", gv);
            }
        }
        return c.select(row -> {
            GroupVersion gv = new GroupVersion(row.group(), row.version());
            boolean defaultOn = !c.offByDefault().contains(gv);
            return defaultOn || enablement.enabled(row.gvr(), enablement.enabled(gv, false));
        });
    }

    /**
     * The built-in API with those of {@code served} that are off by default added (a registry built for
     * a server whose {@code --runtime-config} enabled them).
     */
    public static ResourceTable builtinServing(Collection<ApiResource> served) {
        ResourceTable base = builtin();
        Catalog c = base.catalog;
        Set<ApiResource> extra = new HashSet<>(served);
        return c.select(row -> !c.offByDefault().contains(new GroupVersion(row.group(), row.version()))
                || extra.contains(row));
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
        return new ResourceTable(all, versions, allFacts, storageHashes, catalog);
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
        Set<GroupVersion> off = new HashSet<>();
        Set<GroupVersion> registered = new HashSet<>();
        for (JsonNode g : root.path("groups")) {
            String group = g.path("group").asText();
            versions.put(group, strings(g.path("versions")));
            strings(g.path("offByDefault")).forEach(v -> off.add(new GroupVersion(group, v)));
            strings(g.path("registered")).forEach(v -> registered.add(new GroupVersion(group, v)));
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
        Catalog catalog = new Catalog(List.copyOf(rows), Map.copyOf(facts), versions, Set.copyOf(off),
                Set.copyOf(registered));
        return catalog.select(row -> !off.contains(new GroupVersion(row.group(), row.version())));
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
                r.path("tracksGeneration").asBoolean(false), r.path("createOnUpdate").asBoolean(false), fields,
                deprecation(r.path("deprecated"), row));
    }

    /**
     * kube's deprecation warning for a row whose {@code deprecated} names the release that deprecated it and
     * optionally the one that removes it and the replacement ({@code group/version Kind}), worded as
     * {@code deprecation.WarningMessage}; null when not deprecated.
     */
    private static String deprecation(JsonNode deprecated, ApiResource row) {
        if (!deprecated.hasNonNull("in")) {
            return null;
        }
        String message = new GroupVersion(row.group(), row.version()).apiVersion() + " " + row.kind()
                + " is deprecated in v" + deprecated.get("in").asText() + "+";
        if (deprecated.hasNonNull("removedIn")) {
            message += ", unavailable in v" + deprecated.get("removedIn").asText() + "+";
        }
        if (deprecated.hasNonNull("replacement")) {
            message += "; use " + deprecated.get("replacement").asText();
        }
        return message;
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
