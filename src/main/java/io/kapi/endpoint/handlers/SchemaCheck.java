package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.machinery.resource.ApiResource;
import java.util.List;

/**
 * Validates a decoded body against its kind's schema under the request's {@code fieldValidation}
 * (Strict, Warn, Ignore), pruning unknown fields as kube-apiserver's decoding drops them.
 * Returns the warnings to send; throws {@link io.kapi.machinery.ApiException} 400/422.
 */
@FunctionalInterface
public interface SchemaCheck {

    List<String> check(RestRequest request, ApiResource resource, Decoded body);

    SchemaCheck NONE = (request, resource, body) -> List.of();
}
