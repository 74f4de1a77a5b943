package io.kapi.apis.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.conversion.Converter;

/**
 * {@code autoscaling/v2} HorizontalPodAutoscalers, the storage version: kept as they are, except that
 * the {@link HpaAnnotations round-trip annotations} of {@code autoscaling/v1} never go in or out, as
 * kube's v2 conversion drops them both ways.
 */
public final class HpaV2Conversion implements Converter {

    @Override
    public ObjectNode toStorage(ObjectNode served) {
        ObjectNode out = served.deepCopy();
        HpaAnnotations.drop(out);
        return out;
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        return toStorage(stored);
    }
}
