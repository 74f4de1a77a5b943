package io.kapi.apiextensions.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * How a custom resource's objects change version, by the CRD's {@code spec.conversion.strategy}:
 * {@code None} rewrites {@code apiVersion}, {@code Webhook} asks the CRD's conversion webhook.
 */
public sealed interface ObjectConversion permits NoneConversion, WebhookConversion {

    /**
     * {@code objects} in {@code toApiVersion}, in order; objects already in it are kept as they are.
     * The arguments are the caller's to change; the results may be them.
     *
     * @param list whether the objects are the items of a list (kube words a failure per index then)
     * @throws io.kapi.machinery.ApiException 500, kube's words, when the conversion fails
     */
    List<ObjectNode> convert(List<ObjectNode> objects, String toApiVersion, boolean list);
}
