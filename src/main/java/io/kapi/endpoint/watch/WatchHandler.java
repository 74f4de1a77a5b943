package io.kapi.endpoint.watch;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.Negotiation;
import io.kapi.endpoint.codec.ResponseTarget;
import io.kapi.endpoint.handlers.ListParams;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.endpoint.table.TableConvertor;
import io.kapi.endpoint.table.TableOptions;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.metrics.WatchMetrics;
import io.kapi.registry.FieldSelector;
import io.kapi.registry.ListOptions;
import io.kapi.registry.ResourceVersions;
import io.kapi.storage.cache.CacheWatch;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The watch verb ({@code ?watch=true}, the legacy {@code /watch/} paths, and a named object's watch):
 * checks the options, opens the watch on the resource's store, and streams its events as
 * newline-delimited JSON {@code WatchEvent} frames, or (a built-in kind, Accept protobuf) kube's
 * length-prefixed protobuf frames ({@code application/vnd.kubernetes.protobuf;stream=watch}), until {@code timeoutSeconds} (or kube-apiserver's
 * random default), the client leaves, or the watch ends. The server sends the same frames as WebSocket
 * messages when the request asked for an upgrade.
 */
public final class WatchHandler implements VerbHandler {

    /** What a 406 lists: the formats with a stream form, as kube-apiserver's {@code MediaTypesForSerializer}. */
    static final String STREAM_MEDIA_TYPES = "application/json;stream=watch, " + ProtobufCodec.WATCH_MEDIA_TYPE;

    private final WatchConfig config;
    private final TableConvertor tables;
    private final Clock clock;
    private final WatchMetrics metrics;

    public WatchHandler(WatchConfig config, TableConvertor tables, Clock clock) {
        this(config, tables, clock, null);
    }

    /** @param metrics where each event sent is counted ({@code apiserver_watch_events_*}); null for nowhere */
    public WatchHandler(WatchConfig config, TableConvertor tables, Clock clock, WatchMetrics metrics) {
        this.config = config;
        this.tables = tables;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public RestResponse handle(ResourceRequest r) {
        ListOptions options = withName(ListParams.read(r.http()), r.info().name());
        ResponseTarget target = Negotiation.forResource(r.http().header("Accept"),
                ProtobufCodec.supports(r.resource().gvk()));
        if (target.format() == Format.YAML || target.format() == Format.PROTOBUF && target.isAs("Table")) {
            throw ApiException.notAcceptable(STREAM_MEDIA_TYPES);
        }
        TableOptions tableOptions = target.isAs("Table")
                ? TableOptions.of(target.as().version(), r.http().param("includeObject")) : null;
        Duration timeout = timeout(r.http().param("timeoutSeconds"));
        CacheWatch watch = r.store().watch(r.info().namespace(), options);
        EventEncoder encoder = new EventEncoder(r.resource(), target, tables, tableOptions, clock);
        WatchStream stream = new WatchStream(watch, encoder, timeout,
                options.allowWatchBookmarks() ? config.bookmarkInterval() : null,
                Boolean.TRUE.equals(options.sendInitialEvents()), ResourceVersions.initialEvents(options),
                sent(r.resource().group(), r.resource().version(), r.resource().name()));
        List<java.util.Map.Entry<String, String>> headers = new ArrayList<>();
        String contentType = target.format() == Format.PROTOBUF ? ProtobufCodec.WATCH_MEDIA_TYPE : Format.JSON.mediaType();
        return new RestResponse(200, headers, new RestResponse.Stream(contentType, stream::writeTo));
    }

    /** Counts the events of one watch of {@code group/version/resource} as they are sent. */
    private WatchStream.Sent sent(String group, String version, String resource) {
        return metrics == null ? bytes -> { } : bytes -> metrics.sent(group, version, resource, bytes);
    }

    /** A watch of one object by name watches its collection with {@code metadata.name=<name>}. */
    private static ListOptions withName(ListOptions options, String name) {
        if (name.isEmpty()) {
            return options;
        }
        FieldSelector selector = options.fieldSelector();
        String pinned = selector.pinned("metadata.name");
        if (pinned != null && !pinned.equals(name)) {
            throw ApiException.badRequest("fieldSelector metadata.name=%s does not match the name in the URL (%s)"
                    .formatted(pinned, name));
        }
        List<FieldSelector.Term> terms = new ArrayList<>(selector.terms());
        terms.add(new FieldSelector.Term("metadata.name", name, true));
        return options.withFieldSelector(new FieldSelector(List.copyOf(terms)));
    }

    /**
     * How long the watch lasts, as kube-apiserver's {@code ListResource} computes it: {@code timeoutSeconds}
     * times one second in Go's int64 nanoseconds, a product that wraps around (as Go's multiplication does)
     * past 2^63-1 ns, some 292 years. Zero (not given, or wrapped to zero) is the random default in
     * [min, 2×min); a negative duration (a negative {@code timeoutSeconds}, or one that wrapped) has passed
     * already, so the watch answers 200 and ends at once.
     */
    private Duration timeout(String seconds) {
        long nanos = 0;
        if (seconds != null && !seconds.isEmpty()) {
            try {
                nanos = Long.parseLong(seconds) * 1_000_000_000L;
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("invalid value for timeoutSeconds: " + seconds);
            }
        }
        if (nanos != 0) {
            return Duration.ofNanos(nanos);
        }
        long min = config.minRequestTimeout().toMillis();
        return Duration.ofMillis(min + (long) (ThreadLocalRandom.current().nextDouble() * min));
    }
}
