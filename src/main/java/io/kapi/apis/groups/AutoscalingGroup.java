package io.kapi.apis.groups;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kapi.apis.conversion.HpaV1Conversion;
import io.kapi.apis.conversion.HpaV2Conversion;
import io.kapi.apis.defaults.AutoscalingDefaults;
import io.kapi.apis.validation.Scaling;
import io.kapi.endpoint.table.AutoscalingPrinters;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Json;
import java.util.List;

/**
 * The kinds of {@code autoscaling}: HorizontalPodAutoscalers, served as {@code v2} and {@code v1} and stored as
 * {@code v2} (a {@code v1} object is converted and given {@code v2}'s defaults on its way to storage), and
 * Scale, the kind of the {@code scale} subresource of the workloads and of custom resources, which no resource
 * of its own serves.
 */
final class AutoscalingGroup {

    private static final GroupVersion V2 = new GroupVersion("autoscaling", "v2");
    private static final GroupVersion V1 = new GroupVersion("autoscaling", "v1");
    private static final JsonNodeFactory F = Json.NODES;

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V2, "HorizontalPodAutoscaler")
                    .defaults(AutoscalingDefaults::v2)
                    .validation(Scaling.HPA)
                    .status(o -> F.objectNode().put("desiredReplicas", 0))
                    .conversion(new HpaV2Conversion())
                    .printer(AutoscalingPrinters::horizontalPodAutoscalers),
            BuiltinKind.of(V1, "HorizontalPodAutoscaler")
                    .defaults(AutoscalingDefaults::v1)
                    .validation(Scaling.HPA)
                    .status(o -> F.objectNode().put("currentReplicas", 0).put("desiredReplicas", 0))
                    .conversion(new HpaV1Conversion(AutoscalingDefaults::v2))
                    .printer(AutoscalingPrinters::horizontalPodAutoscalers),
            BuiltinKind.of(V1, "Scale")
                    .printer(AutoscalingPrinters::scales));

    private AutoscalingGroup() {
    }
}
