package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a resource defined at run time (a custom resource version) has beyond a built-in: its schema's
 * handling, its printer columns and its scale subresource's paths (a deprecated version's warning is a
 * {@link io.kapi.machinery.resource.ResourceFacts#deprecation() fact}, as a built-in's).
 *
 * @param schema decode checks and field manager
 * @param printerColumns the version's {@code additionalPrinterColumns} (an empty array for the default
 *        NAME and AGE columns)
 * @param scale where the scale subresource reads and writes, or null without one
 */
public record CustomKind(KindSchema schema, JsonNode printerColumns, Scale scale) {

    /**
     * The scale subresource of a custom resource ({@code CustomResourceSubresourceScale}): simple JSON
     * paths such as {@code .spec.replicas}.
     *
     * @param labelSelectorPath null or empty when the Scale has no selector
     */
    public record Scale(String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {
    }
}
