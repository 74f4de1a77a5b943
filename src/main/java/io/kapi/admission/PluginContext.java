package io.kapi.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.authz.Authorizer;
import java.time.Clock;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.resource.ApiResource;
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
 */
public record PluginContext(ObjectLookup lookup, ConfigSource live, ObjectWriter writer,
                            Supplier<Authorizer> authorizer, Clock clock, JsonNode configuration,
                            Function<GroupVersionKind, Optional<ApiResource>> kinds) {

    /** Reads only, live views listed on each call, nothing authorized: for tests of single plugins. */
    public static PluginContext of(ObjectLookup lookup) {
        return new PluginContext(lookup, resource -> new LiveObjects() {
            @Override
            public List<com.fasterxml.jackson.databind.node.ObjectNode> items() {
                return lookup.list(resource, "");
            }

            @Override
            public long generation() {
                return System.nanoTime();
            }
        }, ObjectWriter.NONE, () -> attributes -> io.kapi.authz.Decision.noOpinion(), Clock.systemUTC(), null, kind -> Optional.empty());
    }

    public PluginContext withConfiguration(JsonNode configuration) {
        return new PluginContext(lookup, live, writer, authorizer, clock, configuration, kinds);
    }
}
