package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.Status;
import io.kapi.registry.DeleteResult;
import java.util.List;

/**
 * DELETE of one object. Answers a Success Status naming what was deleted, or, when finalizers hold
 * the object, the object itself with its deletionTimestamp, as kube-apiserver does; an object whose stored
 * value cannot be read is removed only as {@link UnsafeDeletion} allows.
 */
public record DeleteHandler(Codecs codecs, UnsafeDeletion unsafe) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), r.resource());
        var options = unsafe.allow(r, DeleteOptionsReader.read(r.http(), r.dryRun()));
        DeleteResult result = r.store().delete(r.context(), r.info().namespace(), r.info().name(), options);
        if (!result.deleted()) {
            return response.object(200, result.object());
        }
        var gvr = r.resource().gvr();
        var details = new ApiException.Details(r.info().name(), gvr.group().isEmpty() ? null : gvr.group(),
                gvr.resource(), List.of(), null);
        String uid = result.object() == null ? null : ObjectMeta.of(result.object()).uid();
        return codecs.writer().plain(r.http(), 200, Status.success(details, uid));
    }
}
