package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.request.RequestContext;
import java.util.List;

/**
 * The last filter: puts a write's options into the context once the request is authorized, as
 * kube's handlers decode them before anything else: {@code dryRun} (only {@code All} is a value;
 * anything else is a 400), the raw {@code fieldManager} and {@code fieldValidation}. Reads ignore both.
 */
public final class WriteOptions implements Filter {

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        RequestContext context = request.context();
        if (!context.info().resourceRequest() || context.info().verb() == null || !context.info().verb().writes()) {
            return chain.proceed(request);
        }
        boolean dryRun = dryRun(request.rest().query().get("dryRun"));
        return chain.proceed(request.withContext(context.withWriteOptions(dryRun, request.rest().param("fieldManager"),
                request.rest().param("fieldValidation"))));
    }

    private static boolean dryRun(List<String> values) {
        if (values == null || values.isEmpty()) {
            return false;
        }
        for (String v : values) {
            if (!v.equals("All")) {
                throw ApiException.badRequest(
                        "Invalid dry run value: [" + String.join(" ", values) + "], supported values: All");
            }
        }
        return true;
    }
}
