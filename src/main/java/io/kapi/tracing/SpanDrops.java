package io.kapi.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;

/**
 * Reads the batch span processor's own count of the spans it dropped because its queue was full (the
 * collector slow or gone): the SDK counts them as metrics, read here on demand, never exported.
 */
final class SpanDrops implements MetricReader {

    private static final AttributeKey<Boolean> DROPPED = AttributeKey.booleanKey("dropped");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private volatile CollectionRegistration registration = CollectionRegistration.noop();

    /** Spans dropped so far. */
    long dropped() {
        long dropped = 0;
        for (MetricData metric : registration.collectAllMetrics()) {
            if (metric.getType() != MetricDataType.LONG_SUM) {
                continue;
            }
            for (LongPointData point : metric.getLongSumData().getPoints()) {
                if (Boolean.TRUE.equals(point.getAttributes().get(DROPPED)) || point.getAttributes().get(ERROR_TYPE) != null) {
                    dropped += point.getValue();
                }
            }
        }
        return dropped;
    }

    @Override
    public void register(CollectionRegistration collection) {
        this.registration = collection;
    }

    @Override
    public CompletableResultCode forceFlush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
        return AggregationTemporality.CUMULATIVE;
    }
}
