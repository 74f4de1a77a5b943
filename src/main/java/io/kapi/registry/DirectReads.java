package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.ResourceCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads straight from storage (kube's etcd3 store): gets of the latest version, lists at the current
 * revision or at the exact revision asked for (paged with continue tokens that pin the revision),
 * objects decoded per read. No watches: watches are served by the watch cache.
 */
final class DirectReads implements ObjectReads {

    private final ApiResource resource;
    private final Storage storage;
    private final ObjectKeys keys;
    private final ObjectCodec codec;
    private final SelectableFields selectable;

    DirectReads(ResourceDefinition definition, Storage storage, ObjectCodec codec) {
        this.resource = definition.api();
        this.storage = storage;
        this.keys = definition.keys();
        this.codec = codec;
        this.selectable = definition.selectable();
    }

    @Override
    public Optional<ObjectNode> find(String namespace, String name) {
        return storage.get(keys.key(namespace, name)).map(codec::decode);
    }

    @Override
    public Optional<ObjectNode> get(String namespace, String name, String rv) {
        return find(namespace, name);
    }

    @Override
    public ListResult list(String namespace, ListOptions options) {
        boolean hasToken = options.continueToken() != null && !options.continueToken().isEmpty();
        long rv = ResourceVersions.parse(options.resourceVersion());
        String pinnedName = options.fieldSelector().pinned("metadata.name");
        if (pinnedName != null && !hasToken && rv == 0 && (!namespace.isEmpty() || !resource.namespaced())) {
            return listOne(namespace, pinnedName, options);
        }
        String prefix = keys.collection(namespace);
        ContinueToken from = ContinueToken.decode(options.continueToken());
        if (from != null && !options.resourceVersion().isEmpty() && !options.resourceVersion().equals("0")) {
            throw ApiException.badRequest("specifying resource version is not allowed when using continue");
        }
        String startKey = from == null ? null : prefix + from.start();
        long revision = from != null ? from.revision() : exactRevision(options, rv);
        long current = revision > 0 || rv > 0 ? storage.currentRevision() : 0;
        if (revision > current || (from == null && revision == 0 && rv > current)) {
            throw StorageErrors.tooLarge(new StorageException.ResourceVersionTooLarge(Math.max(revision, rv), current));
        }
        List<ObjectNode> items = new ArrayList<>();
        int limit = options.limit() > 0 ? (int) Math.min(options.limit(), Integer.MAX_VALUE) : 0;
        RangeResult page;
        List<RuntimeException> unreadable = new ArrayList<>();
        try {
            do {
                int want = limit == 0 ? 0 : limit - items.size();
                page = storage.range(prefix, startKey, want, revision);
                revision = page.revision();
                for (KeyValue kv : page.items()) {
                    startKey = kv.key() + "\0";
                    ObjectNode object = decode(kv, unreadable);
                    if (object != null && matches(object, options)) {
                        items.add(object);
                    }
                    if (unreadable.size() > ResourceCache.Unreadable.MOST) {
                        break;
                    }
                }
            } while (page.more() && limit > 0 && items.size() < limit && unreadable.size() <= ResourceCache.Unreadable.MOST);
        } catch (StorageException.Compacted e) {
            throw ApiException.gone(ContinueToken.EXPIRED_MESSAGE);
        }
        if (!unreadable.isEmpty()) {
            throw codec.listError(unreadable, resource.group(), resource.name());
        }
        if (!page.more()) {
            return new ListResult(items, Long.toString(revision), null, null);
        }
        String next = new ContinueToken(revision, startKey.substring(prefix.length())).encode();
        boolean unfiltered = options.labelSelector().isEverything() && options.fieldSelector().isEverything();
        return new ListResult(items, Long.toString(revision), next, unfiltered ? page.remaining() : null);
    }

    /**
     * The object in {@code kv}, or null when its value cannot be read: its error is then added to
     * {@code unreadable} (a LIST goes on, so that it can name every unreadable value it meets).
     */
    private ObjectNode decode(KeyValue kv, List<RuntimeException> unreadable) {
        try {
            return codec.decode(kv);
        } catch (ApiException e) {
            if (CorruptValue.of(e).isEmpty()) {
                throw e;
            }
            unreadable.add(e);
            return null;
        }
    }

    /** The revision a storage list reads at: the version asked for when it must match exactly, else now. */
    private static long exactRevision(ListOptions options, long rv) {
        boolean exact = options.resourceVersionMatch().equals(ResourceVersions.EXACT)
                || options.resourceVersionMatch().isEmpty() && options.limit() > 0;
        return exact ? rv : 0;
    }

    private ListResult listOne(String namespace, String name, ListOptions options) {
        long revision = storage.currentRevision();
        List<ObjectNode> items = storage.get(keys.key(namespace, name)).map(codec::decode)
                .filter(o -> matches(o, options)).stream().toList();
        return new ListResult(items, Long.toString(revision), null, null);
    }

    private boolean matches(ObjectNode object, ListOptions options) {
        return options.labelSelector().matches(ObjectMeta.of(object).labels())
                && (options.fieldSelector().isEverything() || options.fieldSelector().matches(selectable.of(object)));
    }

    @Override
    public CacheWatch watch(String namespace, ListOptions options) {
        throw ApiException.verbNotSupported(resource.gvr(), "watch");
    }
}
