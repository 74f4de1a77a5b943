package io.kapi.admission.initializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ConfigSource;
import io.kapi.admission.LiveObjects;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.ObjectShapes;
import io.kapi.admission.ObjectWriter;
import io.kapi.authz.Authorizer;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.apply.FieldManagers;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.schema.Schemas;
import io.kapi.metrics.AdmissionMetrics;
import io.kapi.metrics.Metrics;
import io.kapi.registry.ResourceDefinition;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a plugin is built with.
 *
 * @param lookup consistent reads of single objects and lists (storage)
 * @param live watched views of configuration resources
 * @param writer status writes (quota charging)
 * @param authorizer the server's authorizer, for CEL's {@code authorizer} (built after the plugins)
 * @param clock the server's clock
 * @param configuration the plugin's part of the AdmissionConfiguration file, or null
 * @param kinds the resource served for a kind (a policy's paramKind), empty when none is
 * @param definitions the definition of a served resource (what its kind's registration says of its objects,
 *        e.g. where they hold a pod template), empty when none is served
 * @param shapes how apply configurations merge into objects and objects get their defaults
 * @param metrics where webhook calls and policy checks are counted and timed
 */
public record PluginContext(ObjectLookup lookup, ConfigSource live, ObjectWriter writer,
                            Supplier<Authorizer> authorizer, Clock clock, JsonNode configuration,
                            Function<GroupVersionKind, Optional<ApiResource>> kinds,
                            Function<GroupVersionResource, Optional<ResourceDefinition>> definitions,
                            ObjectShapes shapes, AdmissionMetrics metrics) {

    /** The metrics of contexts made for tests: one registry for them all, nobody reads it. */
    private static final class TestMetrics {
        static final AdmissionMetrics ADMISSION = Metrics.defaults().admission();
    }

    /** The built-in kinds' schemas, loaded on first use by a test's context. */
    private static final class BuiltinShapes implements ObjectShapes {
        static final FieldManagers FIELDS = new FieldManagers(Schemas.builtin());

        @Override
        public ObjectNode mergeConfiguration(GroupVersionKind kind, ObjectNode live, ObjectNode configuration) {
            return FIELDS.forKind(kind).mergeConfiguration(live, configuration);
        }

        @Override
        public void applyDefaults(GroupVersionKind kind, ObjectNode object) {
        }
    }

    /**
     * Reads only, live views listed on each call, nothing authorized, no resource definitions, built-in
     * schemas for merges and no defaulting: for tests of single plugins.
     */
    public static PluginContext of(ObjectLookup lookup) {
        return new PluginContext(lookup, resource -> new LiveObjects() {
            @Override
            public List<ObjectNode> items() {
                return lookup.list(resource, "");
            }

            @Override
            public long generation() {
                return System.nanoTime();
            }
        }, ObjectWriter.NONE, () -> attributes -> io.kapi.authz.Decision.noOpinion(), Clock.systemUTC(), null, kind -> Optional.empty(),
                resource -> Optional.empty(), new BuiltinShapes(), TestMetrics.ADMISSION);
    }

    public PluginContext withConfiguration(JsonNode configuration) {
        return new PluginContext(lookup, live, writer, authorizer, clock, configuration, kinds, definitions, shapes,
                metrics);
    }

    /** This context with {@code lookup} read through and {@code shapes} for merges and defaults. */
    public PluginContext withShapes(ObjectShapes objectShapes) {
        return new PluginContext(lookup, live, writer, authorizer, clock, configuration, kinds, definitions,
                objectShapes, metrics);
    }
}
