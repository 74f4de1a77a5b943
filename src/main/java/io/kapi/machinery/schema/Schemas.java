package io.kapi.machinery.schema;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Swagger 2.0 definitions of the built-in kinds, read once from the fabric8 validator jar
 * ({@code openshift-generated.json}: Kubernetes 1.34 Go types) plus the project's own
 * {@code schemas/extra-definitions.json} for the few it lacks. Only {@code io.k8s.*} definitions are
 * kept, and their {@code enum}s are dropped: the official spec has none, and kube-apiserver does not
 * enforce them through the schema. The build writes those definitions out once ({@link #PRECOMPILED}),
 * and a start reads that file, each definition parsed when first used.
 *
 * <p>Definitions refer to each other by {@code $ref: "#/definitions/NAME"}. The trees are shared:
 * callers must not mutate them.
 */
public final class Schemas {

    private static final String FABRIC8 = "/openshift-generated.json";
    /** {@link #FABRIC8}'s io.k8s definitions without enums, one a line, written by the build ({@link #writeKubernetesDefinitions}). */
    public static final String PRECOMPILED = "/schemas/kubernetes-definitions.tsv";
    private static final String EXTRA = "/schemas/extra-definitions.json";
    private static final String REF_PREFIX = "#/definitions/";
    private static final String API_PREFIX = "io.k8s.api.";

    private final LazyDefinitions definitions;
    private final Map<GroupVersionKind, String> byKind;

    private Schemas(Map<String, LazyDefinitions.Definition> definitions) {
        this.definitions = new LazyDefinitions(definitions);
        Map<GroupVersionKind, String> kinds = new HashMap<>();
        this.definitions.byName().forEach((name, def) -> {
            if (def.kind != null) {
                kinds.putIfAbsent(def.kind, name);
            }
        });
        this.byKind = Collections.unmodifiableMap(kinds);
    }

    /**
     * The built-in definitions, read once per JVM and shared by every server in it (several in-process
     * servers in one test JVM start without reading the 6 MB file again). Immutable as far as callers
     * keep the contract above: the trees must not be mutated.
     */
    public static Schemas builtin() {
        return Builtin.INSTANCE;
    }

    private static final class Builtin {
        static final Schemas INSTANCE = load();
    }

    /** Loads the definitions from the class path (a fresh copy; servers use {@link #builtin()}). */
    public static Schemas load() {
        // classes that did not go through the build's process-classes step (an IDE's) have no precompiled file
        return load(Schemas.class.getResource(PRECOMPILED) != null);
    }

    /** Loads from the precompiled definitions or from the fabric8 file itself. */
    static Schemas load(boolean precompiled) {
        Map<String, LazyDefinitions.Definition> defs;
        if (precompiled) {
            try (InputStream in = Schemas.class.getResourceAsStream(PRECOMPILED)) {
                if (in == null) {
                    throw new IllegalStateException("missing class-path resource " + PRECOMPILED);
                }
                defs = LazyDefinitions.read(in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + PRECOMPILED, e);
            }
        } else {
            defs = parsed(FABRIC8, true);
        }
        defs.putAll(parsed(EXTRA, false));
        return new Schemas(defs);
    }

    private static Map<String, LazyDefinitions.Definition> parsed(String resource, boolean required) {
        Map<String, ObjectNode> trees = new LinkedHashMap<>();
        readDefinitions(resource, required, trees);
        Map<String, LazyDefinitions.Definition> defs = new LinkedHashMap<>();
        trees.forEach((name, tree) -> defs.put(name, LazyDefinitions.Definition.parsed(name, tree)));
        return defs;
    }

    /**
     * Writes {@link #PRECOMPILED}'s content to {@code out}: the {@code io.k8s.*} definitions of the fabric8
     * file, enums dropped, one a line with its kind ({@link LazyDefinitions}). The build does this once:
     * a start then neither tokenizes the 6 MB file (three fifths of it OpenShift's) nor parses more
     * than the definitions it uses.
     */
    public static void writeKubernetesDefinitions(java.io.OutputStream out) throws IOException {
        Map<String, ObjectNode> defs = new LinkedHashMap<>();
        readDefinitions(FABRIC8, true, defs);
        out.write(LazyDefinitions.write(defs).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** These definitions plus {@code extra} (kinds added at run time), which win over same-named ones. */
    public Schemas plus(Map<String, ObjectNode> extra) {
        if (extra.isEmpty()) {
            return this;
        }
        Map<String, LazyDefinitions.Definition> all = new LinkedHashMap<>(definitions.byName());
        extra.forEach((name, tree) -> all.put(name, LazyDefinitions.Definition.parsed(name, tree)));
        return new Schemas(all);
    }

    /** Every definition by name, e.g. {@code io.k8s.api.core.v1.ConfigMap}, in file order. */
    public Map<String, ObjectNode> definitions() {
        return definitions;
    }

    /** The definition called {@code name}, or null. */
    public ObjectNode definition(String name) {
        return definitions.get(name);
    }

    /** The definition a {@code $ref} value points to, or null. */
    public ObjectNode resolve(String ref) {
        return ref.startsWith(REF_PREFIX) ? definitions.get(ref.substring(REF_PREFIX.length())) : null;
    }

    /** The name of the definition of a top-level kind, e.g. {@code io.k8s.api.apps.v1.Deployment}. */
    public Optional<String> definitionName(GroupVersionKind gvk) {
        return Optional.ofNullable(byKind.get(gvk));
    }

    /**
     * The group, version and kind a definition declares: through {@code x-fabric8-info} (the built-in
     * schemas), else its first {@code x-kubernetes-group-version-kind} (definitions added at run time).
     */
    public static Optional<GroupVersionKind> gvkOf(JsonNode def) {
        JsonNode info = def.get("x-fabric8-info");
        if (info == null || !info.hasNonNull("Kind") || !info.hasNonNull("Version")) {
            JsonNode marker = def.path("x-kubernetes-group-version-kind").path(0);
            if (!marker.hasNonNull("kind") || !marker.hasNonNull("version")) {
                return Optional.empty();
            }
            return Optional.of(new GroupVersionKind(marker.path("group").asText(""), marker.get("version").asText(),
                    marker.get("kind").asText()));
        }
        return Optional.of(new GroupVersionKind(info.path("Group").asText(""), info.get("Version").asText(),
                info.get("Kind").asText()));
    }

    /**
     * The group, version and kind of definition {@code name}, correcting {@code x-fabric8-info}: the
     * fabric8 file leaves {@code Group} empty for the groups whose name has no dot (apps, autoscaling,
     * batch, policy, extensions), so for {@code io.k8s.api.<pkg>.<version>.<Kind>} outside core the
     * group is taken from the package name.
     */
    public static Optional<GroupVersionKind> gvkOf(String name, JsonNode def) {
        return gvkOf(def).map(gvk -> {
            if (!gvk.group().isEmpty() || !name.startsWith(API_PREFIX)) {
                return gvk;
            }
            String pkg = name.substring(API_PREFIX.length(), name.indexOf('.', API_PREFIX.length()));
            return pkg.equals("core") ? gvk : new GroupVersionKind(pkg, gvk.version(), gvk.kind());
        });
    }

    /** Whether a definition is a top-level kind (has {@code apiVersion} and {@code kind} fields). */
    public static boolean isTopLevel(JsonNode def) {
        JsonNode props = def.path("properties");
        return props.has("apiVersion") && props.has("kind");
    }

    /**
     * Reads the {@code io.k8s.*} entries of the file's {@code definitions}, streaming: the other
     * definitions (OpenShift's, three fifths of the fabric8 file) and the other top-level fields are
     * skipped by the tokenizer without building trees, which halves the cost of the first start.
     */
    private static void readDefinitions(String resource, boolean required, Map<String, ObjectNode> into) {
        try (InputStream in = Schemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                if (required) {
                    throw new IllegalStateException("missing class-path resource " + resource);
                }
                return;
            }
            try (JsonParser parser = Json.MAPPER.getFactory().createParser(in)) {
                if (parser.nextToken() != JsonToken.START_OBJECT) {
                    throw new IOException("not a JSON object");
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    parser.nextToken();
                    if (field.equals("definitions") && parser.currentToken() == JsonToken.START_OBJECT) {
                        readKubernetesDefinitions(parser, into);
                    } else {
                        parser.skipChildren();
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** With the parser on the {@code definitions} object's start: reads its io.k8s entries, skips the rest. */
    private static void readKubernetesDefinitions(JsonParser parser, Map<String, ObjectNode> into) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (name.startsWith("io.k8s.") && value == JsonToken.START_OBJECT) {
                ObjectNode def = Json.MAPPER.readTree(parser);
                dropEnums(def);
                into.put(name, def);
            } else {
                parser.skipChildren();
            }
        }
    }

    /** Drops the {@code enum} keyword of every schema; a property named {@code enum} (JSONSchemaProps') stays. */
    private static void dropEnums(JsonNode node) {
        if (node instanceof ObjectNode obj) {
            obj.remove("enum");
            obj.properties().forEach(e -> {
                if (e.getKey().equals("properties") && e.getValue() instanceof ObjectNode props) {
                    props.elements().forEachRemaining(Schemas::dropEnums);
                } else {
                    dropEnums(e.getValue());
                }
            });
        } else if (node.isArray()) {
            node.elements().forEachRemaining(Schemas::dropEnums);
        }
    }
}
