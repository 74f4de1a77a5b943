package io.kapi.assembly;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.ServerSideApply;
import io.kapi.machinery.patch.PatchType;

/** Until server-side apply is wired: apply patches are refused as an unsupported patch type. */
enum ServerSideApplyPending implements ServerSideApply {
    INSTANCE;

    @Override
    public RestResponse handle(ResourceRequest request, byte[] patch, boolean dryRun) {
        throw PatchType.unsupported(java.util.List.of(PatchType.JSON, PatchType.MERGE, PatchType.STRATEGIC_MERGE));
    }
}
