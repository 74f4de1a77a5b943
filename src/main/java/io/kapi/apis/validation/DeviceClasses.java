package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.KindValidator;
import java.util.List;

/**
 * DeviceClasses (resource.k8s.io/v1), as kube 1.34's {@code ValidateDeviceClass}/{@code Update}: the spec's
 * selectors ({@link DeviceSelectors#selectors}) and opaque configurations, at most 32 each. An update
 * validates the new spec the same way (selectors and configurations left as they were count as stored);
 * nothing is immutable. {@code extendedResourceName} ({@code DRAExtendedResource}, alpha) is not read.
 */
public final class DeviceClasses {

    public static final KindValidator RULES = new Rules((o, e) -> spec(GoValues.at(o, "spec"), null, e),
            (o, old, e) -> spec(GoValues.at(o, "spec"), GoValues.at(old, "spec"), e));

    private DeviceClasses() {
    }

    /** {@code validateDeviceClassSpec}; {@code oldSpec} is null on create. */
    private static void spec(JsonNode spec, JsonNode oldSpec, Errs e) {
        boolean storedSelectors = oldSpec != null && GoValues.same(spec.get("selectors"), oldSpec.get("selectors"));
        DeviceSelectors.selectors(spec.get("selectors"), "spec.selectors", storedSelectors, e);
        boolean storedConfig = oldSpec != null && GoValues.same(spec.get("config"), oldSpec.get("config"));
        List<JsonNode> configs = GoValues.items(spec.get("config"));
        for (int i = 0; i < configs.size(); i++) {
            DeviceSelectors.configuration(configs.get(i), "spec.config[" + i + "]", storedConfig, e);
        }
        if (configs.size() > DeviceSelectors.CONFIG_MAX) {
            e.tooMany("spec.config", configs.size(), DeviceSelectors.CONFIG_MAX);
        }
    }
}
