package io.kapi.machinery.cel;

import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL environment of Dynamic Resource Allocation's device selectors, as kube 1.34's
 * {@code k8s.io/dynamic-resource-allocation/cel} declares it with its default features: one variable,
 * {@code device}, of type {@code kubernetes.DRADevice} with {@code driver} (string), {@code attributes}
 * (domain → attribute name → value, values of any type) and {@code capacity} (domain → name → quantity).
 * {@code allowMultipleAllocations} is left out, as kube does while {@code DRAConsumableCapacity} is off.
 * Built once; compile-only use (Kapi allocates no devices).
 */
public final class DeviceCel {

    private static final CelType ATTRIBUTES = MapType.create(SimpleType.STRING,
            MapType.create(SimpleType.STRING, SimpleType.DYN));
    private static final CelType CAPACITY = MapType.create(SimpleType.STRING,
            MapType.create(SimpleType.STRING, QuantityLibrary.QUANTITY));
    private static final Map<String, CelType> FIELDS = Map.of("driver", SimpleType.STRING,
            "attributes", ATTRIBUTES, "capacity", CAPACITY);
    private static final CelType DEVICE = StructType.create("kubernetes.DRADevice",
            ImmutableSet.of("driver", "attributes", "capacity"), f -> Optional.ofNullable(FIELDS.get(f)));
    private static final CelEnvironment SELECTORS = CelEnvironment.builder().variable("device", DEVICE).build();

    private DeviceCel() {
    }

    /** The environment device selector expressions ({@code selectors[].cel.expression}) compile in. */
    public static CelEnvironment selectors() {
        return SELECTORS;
    }
}
