package io.kapi.machinery.resource;

import io.kapi.machinery.GoBool;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionResource;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code --runtime-config}: which API versions and resources are served beyond (or short of) the
 * defaults, as kube's {@code resourceconfig.MergeAPIResourceConfigs} reads the flag: first
 * {@code api/all}, {@code api/ga}, {@code api/beta}, {@code api/alpha} (each {@code true} or
 * {@code false}) over every version they match, in that order; then {@code <group>/<version>=<bool>}
 * ({@code v1} and {@code api/v1} for the core group; an empty value is true); then
 * {@code <group>/<version>/<resource>=<bool>}, which wins over its version. Which versions exist is the
 * {@link ResourceTable}'s to say ({@link ResourceTable#builtin(ApiEnablement)}). Immutable.
 */
public final class ApiEnablement {

    /** The defaults: nothing overridden. */
    public static final ApiEnablement DEFAULT = new ApiEnablement(Map.of(), Map.of(), Map.of());

    private static final Pattern GA = Pattern.compile("v\\d+");
    private static final Pattern BETA = Pattern.compile("v\\d+beta\\d+");
    private static final Pattern ALPHA = Pattern.compile("v\\d+alpha\\d+");
    private static final List<String> MATCHERS = List.of("api/all", "api/ga", "api/beta", "api/alpha");

    private final Map<String, Boolean> matchers;
    private final Map<GroupVersion, Boolean> versions;
    private final Map<GroupVersionResource, Boolean> resources;

    private ApiEnablement(Map<String, Boolean> matchers, Map<GroupVersion, Boolean> versions,
                          Map<GroupVersionResource, Boolean> resources) {
        this.matchers = Collections.unmodifiableMap(new LinkedHashMap<>(matchers));
        this.versions = Collections.unmodifiableMap(new LinkedHashMap<>(versions));
        this.resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
    }

    /**
     * The overrides of one or more {@code --runtime-config} values ({@code key=value} pairs, comma
     * separated; a later key wins).
     *
     * @throws IllegalArgumentException worded as kube-apiserver's: {@code invalid value api/all=x},
     *         {@code invalid value of apps/v1: x, err: ...}, {@code runtime-config invalid key x},
     *         {@code invalid key g/v/R: group/version/resource and resource is always lowercase plural, not "R"}
     */
    public static ApiEnablement parse(List<String> values) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String value : values) {
            for (String pair : value.split(",")) {
                if (pair.isBlank()) {
                    continue;
                }
                String[] kv = pair.split("=", 2);
                pairs.put(kv[0].trim(), kv.length == 2 ? kv[1].trim() : "");
            }
        }
        Map<String, Boolean> matchers = new LinkedHashMap<>();
        Map<GroupVersion, Boolean> versions = new LinkedHashMap<>();
        Map<GroupVersionResource, Boolean> resources = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : pairs.entrySet()) {
            String key = e.getKey();
            if (MATCHERS.contains(key)) {
                switch (e.getValue()) {
                    case "true" -> matchers.put(key, true);
                    case "false" -> matchers.put(key, false);
                    default -> throw new IllegalArgumentException("invalid value " + key + "=" + e.getValue());
                }
                continue;
            }
            String[] tokens = (key.equals("v1") ? "api/v1" : key).split("/", -1);
            if (tokens.length < 2 || tokens.length > 3 || tokens[1].isEmpty()) {
                throw new IllegalArgumentException("runtime-config invalid key " + key);
            }
            String group = tokens[0].equals("api") ? "" : tokens[0];
            GroupVersion gv = new GroupVersion(group, tokens[1]);
            boolean on = value(key, e.getValue());
            if (tokens.length == 2) {
                versions.put(gv, on);
            } else {
                if (!tokens[2].toLowerCase(java.util.Locale.ROOT).equals(tokens[2])) {
                    throw new IllegalArgumentException("invalid key " + key + ": group/version/resource and resource "
                            + "is always lowercase plural, not \"" + tokens[2] + "\"");
                }
                resources.put(new GroupVersionResource(group, tokens[1], tokens[2]), on);
            }
        }
        return new ApiEnablement(matchers, versions, resources);
    }

    private static boolean value(String key, String value) {
        if (value.isEmpty()) {
            return true;
        }
        return GoBool.parse(value).orElseThrow(() -> new IllegalArgumentException("invalid value of " + key + ": "
                + value + ", err: strconv.ParseBool: parsing \"" + value + "\": invalid syntax"));
    }

    /** Whether {@code gv}, served or not by default as {@code byDefault} says, is served. */
    public boolean enabled(GroupVersion gv, boolean byDefault) {
        boolean on = byDefault;
        for (String m : MATCHERS) {
            Boolean v = matchers.get(m);
            if (v != null && matches(m, gv.version())) {
                on = v;
            }
        }
        return versions.getOrDefault(gv, on);
    }

    /** Whether {@code resource} is served, its version being served as {@code versionServed} says. */
    public boolean enabled(GroupVersionResource resource, boolean versionServed) {
        return resources.getOrDefault(resource, versionServed);
    }

    /** The group-versions named explicitly (by themselves or through one of their resources). */
    public List<GroupVersion> named() {
        List<GroupVersion> all = new java.util.ArrayList<>(versions.keySet());
        resources.keySet().forEach(r -> all.add(new GroupVersion(r.group(), r.version())));
        return all.stream().distinct().toList();
    }

    /** Whether anything was given. */
    public boolean isDefault() {
        return matchers.isEmpty() && versions.isEmpty() && resources.isEmpty();
    }

    private static boolean matches(String matcher, String version) {
        return switch (matcher) {
            case "api/ga" -> GA.matcher(version).matches();
            case "api/beta" -> BETA.matcher(version).matches();
            case "api/alpha" -> ALPHA.matcher(version).matches();
            default -> true;
        };
    }
}
